import { getGlAccount, updateGlAccount } from '../../shared/ledger/gl-accounts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { GlAccount, GlAccountUpdate } from '../../shared/ledger/schemas/gl-account';

export const route = defineRoute({
  id: 'gl_accounts.update',
  method: 'PATCH',
  path: '/v1/gl-accounts/{id}',
  tag: 'General ledger',
  summary: 'Update a GL account',
  description:
    'Send only the fields to change. System accounts cannot be deactivated or retyped. The type of an account with postings, and whether it is a bank account, cannot change (create a new account instead).',
  scopes: ['accounting:write'],
  params: idParams,
  body: GlAccountUpdate,
  response: GlAccount,
  errors: ['gl_account_code_taken', 'gl_account_is_system', 'gl_account_in_use'],
  current: (ctx, { params }) => getGlAccount(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { account, previous } = await updateGlAccount(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('gl_account.updated', account, previous);
    return account;
  },
});

export const handler = lambdaHandler(route, idempotency);
