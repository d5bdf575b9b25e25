import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Vendor, PartyUpdate } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.update',
  method: 'PATCH',
  path: '/v1/vendors/{id}',
  tag: 'Vendors',
  summary: 'Update a vendor',
  description: 'Send only the fields to change; null clears an optional field. Archived vendors can be edited.',
  scopes: ['purchasing:write'],
  params: idParams,
  body: PartyUpdate,
  response: Vendor,
  errors: ['account_number_taken', 'external_id_taken'],
  current: (ctx, { params }) => getParty(ctx.db, 'vendor', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { party, previous } = await updateParty(ctx.db, 'vendor', ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('vendor.updated', party, previous);
    return party as Vendor;
  },
});

export const handler = lambdaHandler(route, idempotency);
