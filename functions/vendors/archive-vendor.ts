import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Vendor } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.archive',
  method: 'POST',
  path: '/v1/vendors/{id}/archive',
  tag: 'Vendors',
  summary: 'Archive a vendor',
  description:
    'Archives the vendor: it stays on existing documents and in lists (is_archived true) and can be restored with unarchive. Archiving an archived vendor changes nothing.',
  scopes: ['purchasing:write'],
  params: idParams,
  response: Vendor,
  current: (ctx, { params }) => getParty(ctx.db, 'vendor', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const { party, previous } = await updateParty(ctx.db, 'vendor', ctx.entityId, params.id, { is_archived: true });
    if (Object.keys(previous).length) await ctx.events.record('vendor.archived', party, previous);
    return party as Vendor;
  },
});

export const handler = lambdaHandler(route, idempotency);
