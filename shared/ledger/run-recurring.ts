/**
 * The recurring journal entry runner: posts (or drafts, for review) every template occurrence due
 * on or before a date, exactly once, and moves each template's schedule on.
 *
 * Exactly once, even when two runners overlap: each occurrence is one transaction that claims the
 * template row (FOR UPDATE SKIP LOCKED, re-checking that it is still due), posts the entry and
 * advances next_run_date before committing. A second runner either skips the locked row or, once
 * the first commits, sees the advanced date. A unique index on (template, occurrence date) in
 * journal_entries backs this up in the database. Missed runs are caught up: a template keeps
 * being claimed until its next occurrence is after the as-of date.
 *
 * Finding the entities with work crosses entities, so it runs as app_worker (which can only read
 * the due columns); everything else runs as app_user confined to one entity.
 */
import { withTransaction } from '../db/database';
import { createEventRecorder } from '../events/outbox';
import { publishCommitted } from '../events/publisher';
import { ApiError } from '../errors';
import { logger } from '../powertools';
import {
  advanceTemplate,
  claimDueTemplate,
  dueTemplateIds,
  entitiesWithDueTemplates,
  recordTemplateError,
  RECURRING_SOURCE,
} from './recurring-journal-templates';
import { createDraftJournalEntry } from './journal-entries';
import { postJournalEntry } from './post-journal-entry';

interface RecurringRunEntry {
  entity_id: string;
  template_id: string;
  occurrence_date: string;
  journal_entry_id: string;
  status: 'posted' | 'draft';
}

interface RecurringRunFailure {
  entity_id: string;
  template_id: string;
  occurrence_date: string;
  code: string;
  message: string;
}

export interface RecurringRunResult {
  as_of_date: string;
  entries: RecurringRunEntry[];
  failures: RecurringRunFailure[];
}

export async function runRecurringTemplates(asOfDate: string, options: { entityIds?: string[] } = {}): Promise<RecurringRunResult> {
  const result: RecurringRunResult = { as_of_date: asOfDate, entries: [], failures: [] };
  const entityIds = options.entityIds ?? (await withTransaction({ role: 'app_worker', readOnly: true }, (db) => entitiesWithDueTemplates(db, asOfDate)));
  for (const entityId of entityIds) {
    const templateIds = await withTransaction({ role: 'app_user', entityId, readOnly: true }, (db) => dueTemplateIds(db, entityId, asOfDate));
    for (const templateId of templateIds) await runTemplate(entityId, templateId, asOfDate, result);
  }
  return result;
}

/** Posts a template's due occurrences one transaction each; stops at the first failure (it stays due for the next run). */
async function runTemplate(entityId: string, templateId: string, asOfDate: string, result: RecurringRunResult): Promise<void> {
  for (;;) {
    let occurrenceDate: string | undefined;
    try {
      const outcome = await withTransaction({ role: 'app_user', entityId }, async (db) => {
        const template = await claimDueTemplate(db, entityId, templateId, asOfDate);
        if (!template) return undefined;
        const date = template.next_run_date!;
        occurrenceDate = date;
        const events = createEventRecorder(db, { entityId, mode: template.livemode ? 'live' : 'test', requestId: null });
        const input = {
          entry_date: date,
          memo: template.memo ?? template.name,
          source_type: RECURRING_SOURCE,
          source_id: template.id,
          lines: template.template_lines,
        };
        const entry = template.auto_post
          ? await postJournalEntry(db, { entityId, userId: template.created_by_user_id, keyId: null, events }, input, { allowControlAccounts: false })
          : await createDraftJournalEntry(db, { entityId, userId: template.created_by_user_id }, input);
        if (!template.auto_post) await events.record('journal_entry.created', entry);
        await advanceTemplate(db, template, date);
        return { entry, date, events: events.recorded };
      });
      if (!outcome) return;
      await publishCommitted(entityId, outcome.events);
      result.entries.push({
        entity_id: entityId,
        template_id: templateId,
        occurrence_date: outcome.date,
        journal_entry_id: outcome.entry.id,
        status: outcome.entry.status === 'draft' ? 'draft' : 'posted',
      });
    } catch (error) {
      if (!occurrenceDate) throw error;
      const failure = failureOf(error);
      if (failure.code === 'internal_error') logger.error('recurring template failed', { templateId, error });
      await withTransaction({ role: 'app_user', entityId }, (db) =>
        recordTemplateError(db, entityId, templateId, { ...failure, occurrence_date: occurrenceDate! }),
      );
      result.failures.push({ entity_id: entityId, template_id: templateId, occurrence_date: occurrenceDate, ...failure });
      return;
    }
  }
}

function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: 'internal_error', message: 'The occurrence could not be posted; the next run retries it.' };
}
