import * as z from 'zod/mini';
import { FREQUENCIES } from '../recurrence';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { JournalLineInput } from './journal-entry';
import { livemode } from '../../schemas/livemode';

const TemplateLine = z
  .object({
    account_id: id(),
    debit: z.number().check(z.describe('Zero on a credit line.')),
    credit: z.number().check(z.describe('Zero on a debit line.')),
    memo: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'RecurringJournalTemplateLine' });

export const RecurringJournalTemplate = z
  .object({
    id: id(),
    object: z.literal('recurring_journal_entry_template'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    description: z.nullable(z.string()),
    memo: z.nullable(z.string()).check(z.describe('Memo of every entry the template produces.')),
    frequency: z.enum(FREQUENCIES),
    start_date: isoDate().check(
      z.describe('The schedule anchor: occurrences are start_date plus whole intervals, kept at month ends (Jan 31 → Feb 28/29 → Mar 31).'),
    ),
    end_date: z.nullable(isoDate()).check(z.describe('No occurrence after this date; null runs indefinitely.')),
    next_run_date: z.nullable(isoDate()).check(z.describe('The next occurrence the runner will post; null once the schedule is past end_date.')),
    last_run_date: z.nullable(isoDate()).check(z.describe('The date of the last occurrence posted (or drafted).')),
    auto_post: z.boolean().check(z.describe('Post each occurrence (true) or create a draft journal entry for review (false).')),
    is_active: z.boolean(),
    template_lines: z.array(TemplateLine),
    last_error: z
      .nullable(z.object({ code: z.string(), message: z.string(), occurrence_date: isoDate(), failed_at: timestamp() }))
      .check(
        z.describe(
          'Why the last run could not post the due occurrence (for example a closed period); the occurrence stays due and is retried by the next run.',
        ),
      ),
    created_by_user_id: id(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'RecurringJournalTemplate' });
export type RecurringJournalTemplate = z.infer<typeof RecurringJournalTemplate>;

const templateLines = () => z.array(JournalLineInput).check(z.minLength(2), z.maxLength(100), z.describe('2 to 100 lines whose debits equal their credits.'));

export const RecurringJournalTemplateCreate = z
  .strictObject({
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    description: optionalText(1000),
    memo: optionalText(1000),
    frequency: z.enum(FREQUENCIES),
    start_date: isoDate().check(z.describe('The first occurrence. A date in the past is caught up: the next run posts every occurrence from it.')),
    end_date: z.optional(z.nullable(isoDate())),
    auto_post: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
    is_active: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
    template_lines: templateLines(),
    metadata: z.optional(metadata()),
  })
  .check(z.refine((body) => !body.end_date || body.end_date >= body.start_date, { path: ['end_date'], message: 'must be on or after start_date' }));
export type RecurringJournalTemplateCreate = z.infer<typeof RecurringJournalTemplateCreate>;

export const RecurringJournalTemplateUpdate = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  description: optionalText(1000),
  memo: optionalText(1000),
  frequency: z.optional(z.enum(FREQUENCIES)),
  start_date: z.optional(isoDate()).check(z.describe('Re-anchors the schedule; the next run date becomes its first occurrence after last_run_date.')),
  end_date: z.optional(z.nullable(isoDate())),
  next_run_date: z
    .optional(isoDate())
    .check(z.describe('Moves the next occurrence (to skip or delay one); re-anchors the schedule there. Must be after last_run_date.')),
  auto_post: z.optional(z.boolean()),
  is_active: z.optional(z.boolean()),
  template_lines: z.optional(templateLines()).check(z.describe('Replaces every line.')),
  metadata: z.optional(metadata()),
});
export type RecurringJournalTemplateUpdate = z.infer<typeof RecurringJournalTemplateUpdate>;

export const RECURRING_PAGE_SIZE_DEFAULT = 25;
/** Page numbers are bounded: page x page_size may not pass this many templates. */
export const RECURRING_PAGE_WINDOW = 10_000;

export const RecurringTemplatePage = z.object({
  data: z.array(RecurringJournalTemplate),
  page: z.number().check(z.int(), z.describe('The page returned, from 1.')),
  page_size: z.number().check(z.int()),
  has_more: z.boolean().check(z.describe('Whether a next page exists.')),
});
