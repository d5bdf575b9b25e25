import { createDeposit } from '../../shared/payments/deposits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Deposit, DepositCreate } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'deposits.create',
  method: 'POST',
  path: '/v1/deposits',
  tag: 'Deposits',
  summary: 'Deposit undeposited receipts to a bank account',
  description:
    'E4. Groups undeposited payments into one deposit to the bank GL account whose bank_account_id is given (404 otherwise) and posts one journal entry dated deposit_date: debit the bank account for the total, credit undeposited_funds once per receipt. A receipt is deposited once (409 payment_already_deposited naming payment_ids[i], also under concurrency); a deposit cannot be dated before a receipt in it (400 deposit_date). Scope accounting:write (the spec states none; E3 is accounting:read). Response 201: the deposit {id, status (posted), total_amount, ...}.',
  scopes: ['accounting:write'],
  body: DepositCreate,
  response: Deposit,
  successStatus: 201,
  errors: ['payment_already_deposited', 'period_closed', 'gl_account_inactive'],
  handler: async (ctx, { body }) => {
    const deposit = await createDeposit(ctx.db, ctx, body);
    await ctx.events.record('deposit.created', deposit);
    return deposit;
  },
});

export const handler = lambdaHandler(route, idempotency);
