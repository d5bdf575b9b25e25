import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { voidCredit } from '../../shared/payables/vendor-credits';
import { VendorCredit, VendorCreditVoid } from '../../shared/payables/schemas/vendor-credit';
import { VENDOR_CREDIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_credits.void',
  method: 'POST',
  path: '/v1/vendor-credits/{id}/void',
  tag: 'Vendor credits',
  summary: 'Void a vendor credit',
  description:
    'open or partially_applied → voided. Only the unapplied balance is voided: it moves from remaining_amount to voided_amount, and what AP payments applied stays applied. Posts debit vendor_credits, credit vendor_returns_receivable for that balance, dated today (or credit_date if later). An applied, voided or expired credit is 409 vendor_credit_invalid_transition with current_status. Emits vendor_credit.voided.',
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorCreditVoid,
  response: VendorCredit,
  expand: VENDOR_CREDIT_EXPAND,
  errors: ['vendor_credit_invalid_transition', 'period_closed'],
  handler: (ctx, { params, body }) => voidCredit(ctx.db, ctx, params.id, body.reason),
});

export const handler = lambdaHandler(route, idempotency);
