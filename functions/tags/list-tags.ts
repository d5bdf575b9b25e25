import { listTags } from '../../shared/catalog/tags';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Tag } from '../../shared/catalog/schemas/tag';

export const route = defineRoute({
  id: 'tags.list',
  method: 'GET',
  path: '/v1/tags',
  tag: 'Tags',
  summary: 'List tags',
  description: 'Newest first.',
  scopes: ['settings:read'],
  query: listQuery({ name: param.text({ min: 1, max: 100 }, 'Exact name, case-insensitive.') }),
  response: listEnvelope(Tag),
  list: true,
  handler: (ctx, { query }) => listTags(ctx.db, ctx.entityId, { name: query.name }, query),
});

export const handler = lambdaHandler(route);
