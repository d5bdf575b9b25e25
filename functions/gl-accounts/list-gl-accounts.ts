import { listGlAccounts } from '../../shared/ledger/gl-accounts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { ALL_GL_ACCOUNT_SUBTYPES, GL_ACCOUNT_TYPES, GlAccount, type GlAccountSubtype } from '../../shared/ledger/schemas/gl-account';

export const route = defineRoute({
  id: 'gl_accounts.list',
  method: 'GET',
  path: '/v1/gl-accounts',
  tag: 'General ledger',
  summary: 'List GL accounts',
  description: 'The chart of accounts, newest first.',
  scopes: ['accounting:read'],
  query: listQuery({
    type: param.oneOf(GL_ACCOUNT_TYPES),
    subtype: param.oneOf(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]),
    is_active: param.flag('Only active (true) or inactive (false) accounts.'),
    is_bank: param.flag('Only bank accounts (true) or only other accounts (false).'),
  }),
  response: listEnvelope(GlAccount),
  list: true,
  handler: (ctx, { query }) =>
    listGlAccounts(ctx.db, ctx.entityId, { type: query.type, subtype: query.subtype, is_active: query.is_active, is_bank: query.is_bank }, query),
});

export const handler = lambdaHandler(route);
