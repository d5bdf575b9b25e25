/**
 * ACH clearance of customer payments: an ACH payment is received pending (no journal entry, its
 * documents in awaiting_ach_clearance and not yet paid). Clearing it posts the receipt (debit
 * undeposited funds, credit AR, dated cleared_date), pays the documents and returns each to the
 * order_status it had; a failure (an ACH return) posts nothing, pays nothing and returns them too.
 * So undeposited funds never holds uncleared money and AR only moves with cleared payments.
 */
import type { Db } from '../db/database';
import { receiptApplications, receiptPostingLines } from './allocation';
import { ApiError } from '../errors';
import { postJournalEntry } from '../ledger/post-journal-entry';
import type { PaymentClear, PaymentFail } from './schemas/refund';
import { releaseFromAchClearance } from '../orders/document-money';
import { readPaymentFigures } from './document-payments';
import { getPayment } from './payment-store';
import type { PaymentActor, PaymentResult } from './payment-context';
import { lockApplicationsOf, lockPayment, type LockedPayment } from './refunds';
import { todayUtc } from '../dates';

async function lockPending(db: Db, entityId: string, paymentId: string): Promise<LockedPayment> {
  const payment = await lockPayment(db, entityId, paymentId);
  if (payment.status !== 'pending') {
    throw new ApiError('payment_not_pending', {
      param: 'payment_id',
      hint:
        payment.status === 'failed' || payment.status === 'voided'
          ? `This payment is ${payment.status}; nothing is pending.`
          : 'This payment is not a pending ACH payment: it has cleared already (or was never ACH).',
      details: { current_status: payment.status },
    });
  }
  return payment;
}

/** POST /v1/payments/{payment_id}/clear */
export async function clearPayment(db: Db, actor: PaymentActor, paymentId: string, input: PaymentClear): Promise<PaymentResult> {
  const { entityId } = actor;
  const payment = await lockPending(db, entityId, paymentId);
  const clearedDate = input.cleared_date ?? todayUtc();
  if (clearedDate < payment.payment_date) {
    throw new ApiError('parameter_invalid', { param: 'cleared_date', hint: `An ACH payment cannot clear before it was made (${payment.payment_date}).` });
  }
  const locked = await lockApplicationsOf(db, entityId, payment.id);
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: clearedDate,
      memo: 'Customer payment (ACH cleared)',
      source_type: 'payment',
      source_id: payment.id,
      lines: [
        { system_key: 'undeposited_funds', debit: payment.amount },
        ...receiptPostingLines(
          payment.amount,
          receiptApplications(locked.map(({ application, order }) => ({ order, amount: application.amount_applied }))),
          'credit',
        ),
      ],
    },
    { dateParam: 'cleared_date' },
  );
  await db.query(`UPDATE payments SET status = 'undeposited', journal_entry_id = $3, cleared_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    entityId,
    payment.id,
    entry.id,
  ]);
  await releaseFromAchClearance(
    db,
    entityId,
    locked.map(({ order }) => order),
    readPaymentFigures,
  );
  return { payment: await getPayment(db, entityId, payment.id, 'payment_id') };
}

/** POST /v1/payments/{payment_id}/fail: the ACH debit was returned. */
export async function failPayment(db: Db, actor: PaymentActor, paymentId: string, input: PaymentFail): Promise<PaymentResult> {
  const { entityId } = actor;
  const payment = await lockPending(db, entityId, paymentId);
  const locked = await lockApplicationsOf(db, entityId, payment.id);
  await db.query(
    `UPDATE payments SET status = 'failed', failed_at = now(), failure_reason = $3, unapplied_amount = 0, updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, payment.id, input.failure_reason ?? null],
  );
  await releaseFromAchClearance(
    db,
    entityId,
    locked.map(({ order }) => order),
    readPaymentFigures,
  );
  return { payment: await getPayment(db, entityId, payment.id, 'payment_id') };
}
