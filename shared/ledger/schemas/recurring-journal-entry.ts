import * as z from 'zod';
import { FREQUENCIES } from '../recurrence';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { JournalLineInput } from './journal-entry';
import { livemode } from '../../schemas/livemode';

const TemplateLine = z
  .object({
    account_id: id(),
    debit: z.number().describe('Zero on a credit line.'),
    credit: z.number().describe('Zero on a debit line.'),
    memo: z.string().nullable(),
  })
  .meta({ id: 'RecurringJournalTemplateLine' });

export const RecurringJournalTemplate = z
  .object({
    id: id(),
    object: z.literal('recurring_journal_entry_template'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    description: z.string().nullable(),
    memo: z.string().nullable().describe('Memo of every entry the template produces.'),
    frequency: z.enum(FREQUENCIES),
    start_date: isoDate().describe('The schedule anchor: occurrences are start_date plus whole intervals, kept at month ends (Jan 31 → Feb 28/29 → Mar 31).'),
    end_date: isoDate().nullable().describe('No occurrence after this date; null runs indefinitely.'),
    next_run_date: isoDate().nullable().describe('The next occurrence the runner will post; null once the schedule is past end_date.'),
    last_run_date: isoDate().nullable().describe('The date of the last occurrence posted (or drafted).'),
    auto_post: z.boolean().describe('Post each occurrence (true) or create a draft journal entry for review (false).'),
    is_active: z.boolean(),
    template_lines: z.array(TemplateLine),
    last_error: z
      .object({ code: z.string(), message: z.string(), occurrence_date: isoDate(), failed_at: timestamp() })
      .nullable()
      .describe('Why the last run could not post the due occurrence (for example a closed period); the occurrence stays due and is retried by the next run.'),
    created_by_user_id: id(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'RecurringJournalTemplate' });
export type RecurringJournalTemplate = z.infer<typeof RecurringJournalTemplate>;

const templateLines = () => z.array(JournalLineInput).min(2).max(100).describe('2 to 100 lines whose debits equal their credits.');

export const RecurringJournalTemplateCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: optionalText(1000),
    memo: optionalText(1000),
    frequency: z.enum(FREQUENCIES),
    start_date: isoDate().describe('The first occurrence. A date in the past is caught up: the next run posts every occurrence from it.'),
    end_date: isoDate().nullable().optional(),
    auto_post: z.boolean().optional().describe('Defaults to true.'),
    is_active: z.boolean().optional().describe('Defaults to true.'),
    template_lines: templateLines(),
    metadata: metadata().optional(),
  })
  .refine((body) => !body.end_date || body.end_date >= body.start_date, { path: ['end_date'], message: 'must be on or after start_date' });
export type RecurringJournalTemplateCreate = z.infer<typeof RecurringJournalTemplateCreate>;

export const RecurringJournalTemplateUpdate = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: optionalText(1000),
  memo: optionalText(1000),
  frequency: z.enum(FREQUENCIES).optional(),
  start_date: isoDate().optional().describe('Re-anchors the schedule; the next run date becomes its first occurrence after last_run_date.'),
  end_date: isoDate().nullable().optional(),
  next_run_date: isoDate().optional().describe('Moves the next occurrence (to skip or delay one); re-anchors the schedule there. Must be after last_run_date.'),
  auto_post: z.boolean().optional(),
  is_active: z.boolean().optional(),
  template_lines: templateLines().optional().describe('Replaces every line.'),
  metadata: metadata().optional(),
});
export type RecurringJournalTemplateUpdate = z.infer<typeof RecurringJournalTemplateUpdate>;

export const RECURRING_PAGE_SIZE_DEFAULT = 25;
/** Page numbers are bounded: page x page_size may not pass this many templates. */
export const RECURRING_PAGE_WINDOW = 10_000;

export const RecurringTemplatePage = z.object({
  data: z.array(RecurringJournalTemplate),
  page: z.number().int().describe('The page returned, from 1.'),
  page_size: z.number().int(),
  has_more: z.boolean().describe('Whether a next page exists.'),
});
