import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Vendor } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.unarchive',
  method: 'POST',
  path: '/v1/vendors/{id}/unarchive',
  tag: 'Vendors',
  summary: 'Unarchive a vendor',
  description: 'Restores an archived vendor. Restoring a current vendor changes nothing.',
  scopes: ['purchasing:write'],
  params: idParams,
  response: Vendor,
  current: (ctx, { params }) => getParty(ctx.db, 'vendor', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const { party, previous } = await updateParty(ctx.db, 'vendor', ctx.entityId, params.id, { is_archived: false });
    if (Object.keys(previous).length) await ctx.events.record('vendor.unarchived', party, previous);
    return party as Vendor;
  },
});

export const handler = lambdaHandler(route, idempotency);
