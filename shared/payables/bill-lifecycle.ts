/**
 * The moves of a vendor bill after its draft stage: submit, approve, reject, post (E13) and void.
 * Each locks the bill row first, so of two racing moves exactly one wins and the other meets the
 * new status. Segregation of duties compares the key's user (the key acts on behalf of the user
 * who created it) with the bill's creator.
 */
import type { Db } from '../db/database';
import { hasScope } from '../auth/scopes';
import { requirePermission } from '../auth/permissions';
import { todayUtc } from '../dates';
import { ApiError } from '../errors';
import type { EventRecorder } from '../events/outbox';
import { amount } from '../money';
import { postJournalEntry, reverseJournalEntry } from '../ledger/post-journal-entry';
import { billPostingLines } from './bill-rules';
import { releaseBilledQuantities, settleReceiptCosts } from './bill-from-po';
import { getBillRow, getBillWithLines, linesOfBills, requireStatus, type WireBill } from './vendor-bills';

interface Actor {
  entityId: string;
  userId: string;
  keyId: string;
  scopes: readonly string[];
  events: EventRecorder;
}

type Moved = { bill: WireBill; previous: Partial<WireBill> };

async function moved(db: Db, entityId: string, billId: string, before: { status: string }): Promise<Moved> {
  return { bill: await getBillWithLines(db, entityId, billId), previous: { status: before.status as WireBill['status'] } };
}

/** 422 vendor_bill_empty unless the bill has lines and a total above 0: there is nothing to approve or post otherwise. */
async function requireContent(db: Db, entityId: string, bill: { id: string; bill_total: string }): Promise<void> {
  const lines = (await linesOfBills(db, entityId, [bill.id])).get(bill.id) ?? [];
  if (lines.length === 0 || amount(bill.bill_total).lte(0)) {
    throw new ApiError('vendor_bill_empty', { param: 'id', hint: 'Add lines with a total above 0 first.' });
  }
}

function requireOtherUser(bill: { created_by_user_id: string | null }, actor: Actor, action: 'approve' | 'post'): void {
  if (bill.created_by_user_id !== actor.userId) return;
  throw new ApiError('segregation_of_duties', {
    param: 'id',
    hint: `The user who created this bill cannot ${action} it; use a key of another user.`,
    details: { created_by_user_id: bill.created_by_user_id },
  });
}

export async function submitBill(db: Db, actor: Actor, billId: string): Promise<Moved> {
  const bill = await getBillRow(db, actor.entityId, billId, { lock: true });
  requireStatus(bill, 'submit', 'Only a draft or rejected bill is submitted for approval.');
  await requireContent(db, actor.entityId, bill);
  await db.query(
    `UPDATE vendor_bills SET status = 'pending_approval', submitted_by = $3, submitted_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, billId, actor.userId],
  );
  return moved(db, actor.entityId, billId, bill);
}

async function requireApprover(db: Db, actor: Actor): Promise<void> {
  await requirePermission(db, actor, 'purchasing.approve_bills', {
    hint: 'Approving or rejecting a vendor bill needs the purchasing.approve_bills permission.',
  });
}

export async function approveBill(db: Db, actor: Actor, billId: string): Promise<Moved> {
  const bill = await getBillRow(db, actor.entityId, billId, { lock: true });
  requireStatus(bill, 'approve', 'Only a bill pending approval is approved; submit it first.');
  await requireApprover(db, actor);
  requireOtherUser(bill, actor, 'approve');
  await db.query(`UPDATE vendor_bills SET status = 'approved', approved_by = $3, approved_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    actor.entityId,
    billId,
    actor.userId,
  ]);
  return moved(db, actor.entityId, billId, bill);
}

export async function rejectBill(db: Db, actor: Actor, billId: string, reason: string): Promise<Moved> {
  const bill = await getBillRow(db, actor.entityId, billId, { lock: true });
  requireStatus(bill, 'reject', 'Only a bill pending approval is rejected.');
  await requireApprover(db, actor);
  await db.query(
    `UPDATE vendor_bills SET status = 'rejected', rejected_by = $3, rejected_at = now(), rejection_reason = $4, updated_at = now()
      WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, billId, actor.userId, reason],
  );
  return moved(db, actor.entityId, billId, bill);
}

/**
 * E13: approved → open, writing the AP journal entry dated bill_date. With skip_permission_check
 * (migration:write) a bill in any pre-posting status is posted without approval and without the
 * segregation check, and the carve-out is recorded on the bill and in its entry's metadata.
 */
export async function postBill(db: Db, actor: Actor, billId: string, options: { skipPermissionCheck: boolean }): Promise<Moved> {
  if (options.skipPermissionCheck && !hasScope(actor.scopes, 'migration:write')) {
    throw new ApiError('insufficient_scope', {
      param: 'skip_permission_check',
      required: 'migration:write',
      hint: 'skip_permission_check is a migration carve-out: it needs a key with the migration:write scope.',
    });
  }
  const bill = await getBillRow(db, actor.entityId, billId, { lock: true });
  if (options.skipPermissionCheck) {
    requireStatus(bill, 'post_skipping_approval', 'This bill is already posted or voided.');
  } else {
    requireStatus(bill, 'post', 'Only an approved bill is posted; submit it and have it approved first.');
    requireOtherUser(bill, actor, 'post');
  }
  await requireContent(db, actor.entityId, bill);
  await settleReceiptCosts(db, actor.entityId, billId, bill.po_id);
  const lines = (await linesOfBills(db, actor.entityId, [billId])).get(billId) ?? [];
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: bill.bill_date,
      memo: `Vendor bill ${bill.bill_number}${bill.vendor_invoice_number ? ` (vendor invoice ${bill.vendor_invoice_number})` : ''}`,
      source_type: 'vendor_bill',
      source_id: bill.id,
      lines: billPostingLines(bill, lines),
      metadata: options.skipPermissionCheck ? { skip_permission_check: 'true' } : {},
    },
    { dateParam: 'bill_date' },
  );
  await db.query(
    `UPDATE vendor_bills SET status = 'open', posted_by = $3, posted_at = now(), journal_entry_id = $4, skip_permission_check = $5, updated_at = now()
      WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, billId, actor.userId, entry.id, options.skipPermissionCheck],
  );
  return moved(db, actor.entityId, billId, bill);
}

/**
 * Voids a bill. A posted bill's AP entry is reversed, dated today (or bill_date if later), so a
 * closed period is never reopened by a void; a bill with payments applied is refused (unapply or
 * void the payments first). An unposted bill is voided with no ledger effect. balance_due is left
 * as it was: the status says the bill is void, and the lifecycle never coerces the balance.
 */
export async function voidBill(db: Db, actor: Actor, billId: string): Promise<Moved> {
  const bill = await getBillRow(db, actor.entityId, billId, { lock: true });
  const payments = await db.query<{ payment_id: string }>(
    'SELECT DISTINCT payment_id FROM ap_payment_applications WHERE entity_id = $1 AND bill_id = $2 AND voided_on IS NULL ORDER BY payment_id',
    [actor.entityId, billId],
  );
  if (payments.length > 0) {
    throw new ApiError('vendor_bill_has_payments', {
      param: 'id',
      hint: 'AP payments are applied to this bill: void them first (POST /v1/ap-payments/{id}/void).',
      details: { current_status: bill.status, payment_ids: payments.map((row) => row.payment_id) },
    });
  }
  requireStatus(bill, 'void', 'This bill is already voided, or paid in part or in full: void or unapply its payments first.');
  if (amount(bill.amount_paid).gt(0)) {
    throw new ApiError('vendor_bill_invalid_transition', {
      param: 'id',
      hint: 'Payments are applied to this bill: void or unapply them first.',
      details: { current_status: bill.status },
    });
  }
  await releaseBilledQuantities(db, actor.entityId, billId, bill.po_id);
  let reversalId: string | null = null;
  if (bill.journal_entry_id) {
    const today = todayUtc();
    const { reversal } = await reverseJournalEntry(db, actor, bill.journal_entry_id, {
      reversal_date: today > bill.bill_date ? today : bill.bill_date,
      memo: `Void of vendor bill ${bill.bill_number}`,
    });
    reversalId = reversal.id;
  }
  await db.query(
    `UPDATE vendor_bills SET status = 'voided', voided_by = $3, voided_at = now(), void_journal_entry_id = $4, updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, billId, actor.userId, reversalId],
  );
  return moved(db, actor.entityId, billId, bill);
}
