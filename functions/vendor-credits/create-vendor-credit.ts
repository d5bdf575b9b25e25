import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { createCredit } from '../../shared/payables/vendor-credits';
import { VendorCredit, VendorCreditCreate } from '../../shared/payables/schemas/vendor-credit';
import { VENDOR_CREDIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_credits.create',
  method: 'POST',
  path: '/v1/vendor-credits',
  tag: 'Vendor credits',
  summary: 'Issue a vendor credit',
  description:
    "Issues a credit from a vendor of the entity: amount in whole cents (shown as a 4-decimal string), remaining_amount equal to it, status open, credit_number from the entity's gap-free sequence (VC-000001). source_type is free text (default manual; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other). A price adjustment on a bill is source_type price_adjustment with source_id the bill: a posted bill (open, partially_paid or paid; 409 vendor_bill_invalid_transition otherwise) of the same vendor, and the bill's price adjustments together stay within its bill_total (400 on amount otherwise). Other source types keep source_id as sent. expires_at (optional, in the future) is when the expiry job forfeits what is left. Posts the issuance entry dated credit_date (default today): debit vendor_returns_receivable, credit vendor_credits (422 period_closed on a closed period). Apply it with POST /v1/ap-payments and vendor_credit_ids[]. Idempotency-Key supported. Emits vendor_credit.created.",
  scopes: ['purchasing:write'],
  body: VendorCreditCreate,
  response: VendorCredit,
  successStatus: 201,
  expand: VENDOR_CREDIT_EXPAND,
  errors: ['party_archived', 'vendor_bill_invalid_transition', 'period_closed'],
  handler: (ctx, { body }) => createCredit(ctx.db, ctx, body),
});

export const handler = lambdaHandler(route, idempotency);
