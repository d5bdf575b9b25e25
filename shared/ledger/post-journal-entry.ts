/**
 * The posting service: the one way anything reaches the general ledger. Sales, purchasing,
 * payments, deposits, the recurring runner and manual entries all call it inside their own
 * transaction, so the entry commits or rolls back with the document that caused it.
 *
 *   const entry = await postJournalEntry(ctx.db, ctx, {
 *     entry_date: invoice.invoice_date,
 *     memo: `Invoice ${invoice.invoice_number}`,
 *     source_type: 'invoice',
 *     source_id: invoice.id,
 *     lines: [
 *       { system_key: 'accounts_receivable', debit: total },
 *       { system_key: 'sales_revenue', credit: subtotal },
 *       { system_key: 'sales_tax_payable', credit: tax },
 *     ],
 *   });
 *
 * What it guarantees: the lines balance to the cent (else 422 journal_entry_unbalanced, with the
 * totals); every account belongs to the entity (404 naming the line) and is active (422
 * gl_account_inactive); the date's period accepts postings (422 period_closed naming the period),
 * and stays so until the caller commits; the entry is numbered gap-free (JE-000001), carries its
 * source and who posted it, and journal_entry.posted is in the outbox. Any refusal is an ApiError
 * thrown before anything is written.
 */
import type { EventRecorder } from '../events/outbox';
import type { Db } from '../db/database';
import { formatNumber, nextNumber } from '../db/sequences';
import { checkEntry, reversedLines, type LineProblem } from './entry-balance';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, toJsonNumber, type AmountLike } from '../money';
import type { SystemAccountKey } from './schemas/gl-account';
import type { JournalEntry } from './schemas/journal-entry';
import { lockPeriodForPosting } from './accounting-periods';
import { resolvePostingAccounts } from './gl-accounts';
import { getDraftForPosting, getJournalEntry, markReversed, storedLines, writePostedEntry } from './journal-entries';

/** Who posts: the request context satisfies it; scheduled postings pass userId of the owner and keyId null. */
export interface PostingContext {
  entityId: string;
  userId: string | null;
  keyId: string | null;
  events: EventRecorder;
}

export interface PostingLine {
  /** The account, by id ... */
  account_id?: string;
  /** ... or by the system account's key (accounts_receivable, sales_revenue, ...). */
  system_key?: SystemAccountKey;
  /** Exactly one of debit and credit is positive, in whole cents. */
  debit?: AmountLike | null;
  credit?: AmountLike | null;
  memo?: string | null;
  /** Kept when a draft is posted, so line ids are stable; new lines get one. */
  id?: string;
}

export interface PostingInput {
  entry_date: string;
  memo?: string | null;
  /** What caused the entry: 'invoice', 'vendor_bill', 'payment', 'manual', ... (lower snake case). */
  source_type: string;
  source_id?: string | null;
  lines: readonly PostingLine[];
  metadata?: Record<string, string>;
}

export interface PostingOptions {
  /** Manual entries may not touch accounts receivable or payable; their documents may. Default true. */
  allowControlAccounts?: boolean;
  /** A reversal must go through even if an account was deactivated since. Default false. */
  allowInactiveAccounts?: boolean;
  /** Post this draft (same id) instead of creating a new entry. */
  draftId?: string;
  createdByUserId?: string | null;
  reversalOfId?: string;
  /** The request parameter a period refusal names (entry_date unless stated). */
  dateParam?: string;
}

const LINE_PROBLEMS: Record<LineProblem, string> = {
  both_sides: 'A line has a debit or a credit, not both.',
  no_side: 'A line needs a positive debit or credit.',
  negative: 'Amounts are positive; put a negative debit in the credit column instead.',
  sub_cent: 'Amounts are in whole cents (at most 2 decimal places).',
};

export async function postJournalEntry(db: Db, ctx: PostingContext, input: PostingInput, options: PostingOptions = {}): Promise<JournalEntry> {
  const check = checkEntry(input.lines);
  if (!check.ok) {
    if (check.reason === 'invalid_line') {
      const line = input.lines[check.index];
      const debitGiven = line.debit !== undefined && line.debit !== null && !amount(line.debit).isZero();
      const side = check.problem === 'no_side' || debitGiven ? 'debit' : 'credit';
      throw new ApiError('parameter_invalid', { param: `lines[${check.index}].${side}`, hint: LINE_PROBLEMS[check.problem] });
    }
    throw new ApiError('journal_entry_unbalanced', {
      param: 'lines',
      hint:
        check.reason === 'unbalanced'
          ? `Debits (${check.debits.toString()}) must equal credits (${check.credits.toString()}).`
          : 'A posted entry needs at least one debit line and one credit line.',
      details: { total_debits: toJsonNumber(check.debits), total_credits: toJsonNumber(check.credits) },
    });
  }
  const accountIds = await resolveAccounts(db, ctx.entityId, input.lines, options);
  const period = await lockPeriodForPosting(db, ctx.entityId, input.entry_date, options.dateParam);
  const entryNumber = formatNumber('JE-', await nextNumber(db, ctx.entityId, 'journal_entry'));
  const lines = storedLines(input.lines.map((line, index) => ({ ...line, account_id: accountIds[index] })));
  const entry = await writePostedEntry(
    db,
    ctx.entityId,
    {
      id: options.draftId ?? newId(),
      entry_number: entryNumber,
      entry_date: input.entry_date,
      memo: input.memo ?? null,
      source_type: input.source_type,
      source_id: input.source_id ?? null,
      period_id: period?.id ?? null,
      line_count: lines.length,
      total_amount: check.total.toString(),
      created_by_user_id: options.createdByUserId ?? ctx.userId,
      posted_by_user_id: ctx.userId,
      posted_by_key_id: ctx.keyId,
      reversal_of_id: options.reversalOfId ?? null,
      metadata: input.metadata ?? {},
    },
    lines,
    options.draftId,
  );
  await ctx.events.record('journal_entry.posted', entry);
  return entry;
}

async function resolveAccounts(db: Db, entityId: string, lines: readonly PostingLine[], options: PostingOptions): Promise<string[]> {
  if (options.allowInactiveAccounts) {
    // A reversal mirrors lines that were valid when posted: it skips the active and control
    // checks, and the foreign key still holds every account to this entity.
    return lines.map((line) => line.account_id!);
  }
  return resolvePostingAccounts(db, entityId, lines, { allowControlAccounts: options.allowControlAccounts ?? true });
}

/** Posts a draft as it stands (POST /v1/journal-entries/{id}/post); the draft keeps its id and line ids. */
export async function postDraftJournalEntry(db: Db, ctx: PostingContext, entryId: string): Promise<JournalEntry> {
  const draft = await getDraftForPosting(db, ctx.entityId, entryId);
  return postJournalEntry(
    db,
    ctx,
    {
      entry_date: draft.entry_date,
      memo: draft.memo,
      source_type: draft.source_type,
      source_id: draft.source_id,
      lines: draft.lines.map((line) => ({ id: line.id, account_id: line.account_id, debit: line.debit, credit: line.credit, memo: line.memo })),
      metadata: draft.metadata,
    },
    // Drafts come from manual entries and recurring templates, which never post to control accounts.
    { draftId: draft.id, createdByUserId: draft.created_by_user_id, allowControlAccounts: false },
  );
}

/**
 * Reverses a posted entry: posts its mirror image (debits and credits swapped, same source,
 * reversal_of_id set) dated `reversal_date` (default: the original's date, so the correction
 * lands where the mistake did) and marks the original reversed. Records journal_entry.posted for
 * the reversal and journal_entry.reversed for the original.
 */
export async function reverseJournalEntry(
  db: Db,
  ctx: PostingContext,
  entryId: string,
  input: { reversal_date?: string; memo?: string | null } = {},
): Promise<{ original: JournalEntry; reversal: JournalEntry }> {
  const original = await getJournalEntry(db, ctx.entityId, entryId, { lock: true });
  if (original.status !== 'posted' || original.reversal_of_id) {
    throw new ApiError('journal_entry_not_reversible', {
      param: 'id',
      hint:
        original.status === 'posted'
          ? 'This entry is itself a reversal; post a new entry instead of reversing it.'
          : original.status === 'draft'
            ? 'A draft has nothing to reverse; change or delete it instead.'
            : 'This entry has already been reversed.',
      details: { current_status: original.status },
    });
  }
  const reversalDate = input.reversal_date ?? original.entry_date;
  if (reversalDate < original.entry_date) {
    throw new ApiError('parameter_invalid', {
      param: 'reversal_date',
      hint: `A reversal cannot be dated before the entry it reverses (${original.entry_date}).`,
    });
  }
  const reversal = await postJournalEntry(
    db,
    ctx,
    {
      entry_date: reversalDate,
      memo: input.memo ?? `Reversal of ${original.entry_number}`,
      source_type: original.source_type,
      source_id: original.source_id,
      lines: reversedLines(original.lines.map((line) => ({ account_id: line.account_id, debit: line.debit, credit: line.credit, memo: line.memo }))),
    },
    // A refused date names reversal_date even when defaulted: sending a later one is the fix.
    { allowInactiveAccounts: true, reversalOfId: original.id, dateParam: 'reversal_date' },
  );
  const reversed = await markReversed(db, ctx.entityId, original.id, reversal.id);
  await ctx.events.record('journal_entry.reversed', reversed);
  return { original: reversed, reversal };
}
