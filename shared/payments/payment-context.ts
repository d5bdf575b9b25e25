/**
 * What every payment use case shares (recording, refunds, voids, ACH clearance, deposits): who acts,
 * what it answers, the event it records, and which payments can still be used.
 */
import type { EventRecorder } from '../events/outbox';
import { ApiError } from '../errors';
import type { PostingContext } from '../ledger/post-journal-entry';
import type { Payment } from './schemas/payment';

/** Who acts: the posting context of the ledger, the user recorded on rows, and the events of the request. */
export type PaymentActor = PostingContext & { userId: string; events: EventRecorder };

export interface PaymentResult {
  payment: Payment;
}

/** Records the payment's event. The documents it paid are named in its applications (no order.updated). */
export async function recordPaymentEvents(
  actor: PaymentActor,
  type: 'payment.created' | 'payment.applied' | 'payment.refunded' | 'payment.voided' | 'payment.cleared' | 'payment.failed',
  result: PaymentResult,
): Promise<void> {
  await actor.events.record(type, result.payment);
}

/** Refuses a payment that is not (or no longer) cleared money: pending ACH, voided or failed. */
export function assertPaymentUsable(status: string, param: string): void {
  if (status === 'pending') throw new ApiError('payment_pending_clearance', { param, details: { current_status: status } });
  if (status === 'voided' || status === 'failed') throw new ApiError('payment_voided', { param, details: { current_status: status } });
}
