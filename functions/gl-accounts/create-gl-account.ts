import { createGlAccount } from '../../shared/ledger/gl-accounts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { GlAccount, GlAccountCreate } from '../../shared/ledger/schemas/gl-account';

export const route = defineRoute({
  id: 'gl_accounts.create',
  method: 'POST',
  path: '/v1/gl-accounts',
  tag: 'General ledger',
  summary: 'Create a GL account',
  description:
    'Adds an account to the chart of accounts. Codes are unique within the entity (case-insensitive). A bank account (subtype bank) gets a bank_account_id and appears in the cash balance report. Every entity already has the system accounts (system_key set).',
  scopes: ['accounting:write'],
  body: GlAccountCreate,
  response: GlAccount,
  successStatus: 201,
  errors: ['gl_account_code_taken'],
  handler: async (ctx, { body }) => {
    const account = await createGlAccount(ctx.db, ctx.entityId, body);
    await ctx.events.record('gl_account.created', account);
    return account;
  },
});

export const handler = lambdaHandler(route, idempotency);
