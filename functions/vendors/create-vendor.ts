import { createParty } from '../../shared/parties/parties';
import { asBatchRecord } from '../../shared/migration/batches';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Vendor, PartyCreate } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.create',
  method: 'POST',
  path: '/v1/vendors',
  tag: 'Vendors',
  summary: 'Create a vendor',
  description:
    'Vendors: the parties purchase orders and bills are with. account_number and external_source + external_id are unique within the entity when set. With migration_batch_id (an open import batch of this entity) the record keeps the batch id and gets imported_at; a repeated external_source + external_id answers 409 external_id_taken with existing_id, so an import re-run can skip what is in.',
  scopes: ['purchasing:write'],
  body: PartyCreate,
  response: Vendor,
  successStatus: 201,
  errors: ['account_number_taken', 'external_id_taken', 'migration_batch_closed'],
  handler: async (ctx, { body }) => {
    const vendor = await createParty(ctx.db, 'vendor', ctx.entityId, await asBatchRecord(ctx.db, ctx.entityId, body));
    await ctx.events.record('vendor.created', vendor);
    return vendor as Vendor;
  },
});

export const handler = lambdaHandler(route, idempotency);
