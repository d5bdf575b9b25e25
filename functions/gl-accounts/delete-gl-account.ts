import { deleteGlAccount, getGlAccount } from '../../shared/ledger/gl-accounts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'gl_accounts.delete',
  method: 'DELETE',
  path: '/v1/gl-accounts/{id}',
  tag: 'General ledger',
  summary: 'Delete a GL account',
  description:
    'Only an account nothing refers to: no postings, draft entries or recurring templates (409 gl_account_in_use with references; deactivate it instead). System accounts cannot be deleted.',
  scopes: ['accounting:write'],
  params: idParams,
  response: deletedObject('gl_account'),
  errors: ['gl_account_is_system', 'gl_account_in_use'],
  current: (ctx, { params }) => getGlAccount(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const account = await deleteGlAccount(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('gl_account.deleted', account);
    return { id: account.id, object: 'gl_account' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
