import { createParty } from '../../shared/parties/parties';
import { asBatchRecord } from '../../shared/migration/batches';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Account, PartyCreate } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.create',
  method: 'POST',
  path: '/v1/accounts',
  tag: 'Accounts',
  summary: 'Create a account',
  description:
    'Customer accounts: the parties sales documents are for. account_number and external_source + external_id are unique within the entity when set. With migration_batch_id (an open import batch of this entity) the record keeps the batch id and gets imported_at; a repeated external_source + external_id answers 409 external_id_taken with existing_id, so an import re-run can skip what is in.',
  scopes: ['accounts:write'],
  body: PartyCreate,
  response: Account,
  successStatus: 201,
  errors: ['account_number_taken', 'external_id_taken', 'migration_batch_closed'],
  handler: async (ctx, { body }) => {
    const account = await createParty(ctx.db, 'account', ctx.entityId, await asBatchRecord(ctx.db, ctx.entityId, body));
    await ctx.events.record('account.created', account);
    return account as Account;
  },
});

export const handler = lambdaHandler(route, idempotency);
