import { listManufacturers } from '../../shared/catalog/manufacturers';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Manufacturer } from '../../shared/catalog/schemas/manufacturer';

export const route = defineRoute({
  id: 'manufacturers.list',
  method: 'GET',
  path: '/v1/manufacturers',
  tag: 'Manufacturers',
  summary: 'List manufacturers',
  description: 'Newest first.',
  scopes: ['manufacturers:read'],
  query: listQuery({ name: param.text({ min: 1, max: 200 }, 'Exact name, case-insensitive.') }),
  response: listEnvelope(Manufacturer),
  list: true,
  handler: (ctx, { query }) => listManufacturers(ctx.db, ctx.entityId, { name: query.name }, query),
});

export const handler = lambdaHandler(route);
