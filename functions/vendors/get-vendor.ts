import { getParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Vendor } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.get',
  method: 'GET',
  path: '/v1/vendors/{id}',
  tag: 'Vendors',
  summary: 'Retrieve a vendor',
  description: 'Archived vendors are returned too (is_archived true).',
  scopes: ['purchasing:read'],
  params: idParams,
  response: Vendor,
  handler: async (ctx, { params }) => (await getParty(ctx.db, 'vendor', ctx.entityId, params.id)) as Vendor,
});

export const handler = lambdaHandler(route);
