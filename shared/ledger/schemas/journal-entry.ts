import * as z from 'zod/mini';
import { amount, decimalInput } from '../../money';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { GlAccount } from './gl-account';
import { livemode } from '../../schemas/livemode';

export const JOURNAL_ENTRY_STATUSES = ['draft', 'posted', 'reversed'] as const;
export type JournalEntryStatus = (typeof JOURNAL_ENTRY_STATUSES)[number];

export const JournalLine = z
  .object({
    id: id(),
    line_number: z.number().check(z.int(), z.gte(1)),
    account_id: id(),
    debit: z.number().check(z.describe('Zero on a credit line.')),
    credit: z.number().check(z.describe('Zero on a debit line.')),
    memo: z.nullable(z.string()),
    account: z.optional(z.nullable(GlAccount)).check(z.describe('Present when expanded with expand[]=lines.account.')),
  })
  .register(z.globalRegistry, { id: 'JournalLine' });
export type JournalLine = z.infer<typeof JournalLine>;

export const JournalEntry = z
  .object({
    id: id(),
    object: z.literal('journal_entry'),
    livemode: livemode(),
    entity_id: id(),
    entry_number: z.nullable(z.string()).check(z.describe('JE-000001 and up, gap-free per entity; taken when the entry is posted (null on drafts).')),
    status: z
      .enum(JOURNAL_ENTRY_STATUSES)
      .check(z.describe('draft (editable), posted (immutable) or reversed (posted, and cancelled by its reversing entry).')),
    entry_date: isoDate(),
    memo: z.nullable(z.string()),
    source_type: z
      .string()
      .check(z.describe('What produced the entry: manual, recurring_journal_template, or the document type of the module that posted it.')),
    source_id: z.nullable(id()).check(z.describe('The id of the source document or template; null for manual entries.')),
    period_id: z.nullable(id()).check(z.describe('The accounting period that covered entry_date when the entry was posted; null when none did.')),
    total_debits: z.number(),
    total_credits: z.number().check(z.describe('Equal to total_debits once posted.')),
    lines: z.array(JournalLine),
    created_by_user_id: z.nullable(id()),
    posted_by_user_id: z.nullable(id()),
    posted_by_key_id: z.nullable(id()).check(z.describe('The API key that posted the entry; null for scheduled postings.')),
    posted_at: z.nullable(timestamp()),
    reversal_of_id: z.nullable(id()).check(z.describe('On a reversing entry: the entry it reverses.')),
    reversed_by_id: z.nullable(id()).check(z.describe('On a reversed entry: its reversing entry.')),
    reversed_at: z.nullable(timestamp()),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'JournalEntry' });
export type JournalEntry = z.infer<typeof JournalEntry>;

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** One line of a request: an account and exactly one positive side. */
export const JournalLineInput = z
  .strictObject({
    account_id: id(),
    debit: z.optional(decimalInput({ scale: 2, min: 0 })).check(z.describe('Send debit or credit (a positive amount in whole cents), not both.')),
    credit: z.optional(decimalInput({ scale: 2, min: 0 })),
    memo: optionalText(500),
  })
  .check(
    z.superRefine((line, ctx) => {
      // zod runs this even when a side failed its own check (then it holds the raw input): such a
      // side counts as present, so only its own error is reported and nothing parses it here.
      const given = (side: unknown) => side !== undefined && (typeof side !== 'string' || !DECIMAL_TEXT.test(side) || !amount(side).isZero());
      const debit = given(line.debit);
      const credit = given(line.credit);
      if (debit === credit) {
        ctx.addIssue({
          code: 'custom',
          path: [debit ? 'credit' : 'debit'],
          message: debit ? 'a line has a debit or a credit, not both' : 'a line needs a positive debit or credit',
        });
      }
    }),
  );
export type JournalLineInput = z.infer<typeof JournalLineInput>;

const lines = () => z.array(JournalLineInput).check(z.minLength(1), z.maxLength(500));

export const JournalEntryCreate = z.strictObject({
  entry_date: isoDate(),
  memo: optionalText(1000),
  lines: lines().check(z.describe('1 to 500 lines. A draft may be unbalanced; posting needs debits equal to credits.')),
  post: z.optional(z.boolean()).check(z.describe('Post at once (true) instead of saving a draft (default false).')),
  metadata: z.optional(metadata()),
});
export type JournalEntryCreate = z.infer<typeof JournalEntryCreate>;

export const JournalEntryUpdate = z.strictObject({
  entry_date: z.optional(isoDate()),
  memo: optionalText(1000),
  lines: z.optional(lines()).check(z.describe('Replaces every line.')),
  metadata: z.optional(metadata()),
});
export type JournalEntryUpdate = z.infer<typeof JournalEntryUpdate>;

export const JournalEntryReverse = z.strictObject({
  reversal_date: z.optional(isoDate()).check(z.describe("Date of the reversing entry; defaults to the original's entry_date. Never before it.")),
  memo: optionalText(1000).check(z.describe('Defaults to "Reversal of JE-…".')),
});
export type JournalEntryReverse = z.infer<typeof JournalEntryReverse>;
