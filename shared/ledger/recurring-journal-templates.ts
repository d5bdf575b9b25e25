/** SQL for recurring journal entry templates. Every statement also filters by entity. */
import type { Db } from '../db/database';
import { checkEntry } from './entry-balance';
import { nextRunDate, type Frequency } from './recurrence';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import { toJsonNumber } from '../money';
import type { JournalLineInput } from './schemas/journal-entry';
import {
  RECURRING_PAGE_WINDOW,
  type RecurringJournalTemplate,
  type RecurringJournalTemplateCreate,
  type RecurringJournalTemplateUpdate,
} from './schemas/recurring-journal-entry';
import { resolvePostingAccounts } from './gl-accounts';

/** source_type of the entries a template produces. */
export const RECURRING_SOURCE = 'recurring_journal_template';

const COLUMNS = `id, 'recurring_journal_entry_template' AS object, entity_id, name, description, memo, frequency, start_date, end_date,
  next_run_date, last_run_date, auto_post, is_active, template_lines, last_error, created_by_user_id, metadata, created_at, updated_at`;

interface StoredTemplateLine {
  account_id: string;
  debit: string;
  credit: string;
  memo: string | null;
}

/** A template as stored: line amounts are decimal text, exactly what gets posted. */
export interface TemplateRow extends Omit<RecurringJournalTemplate, 'template_lines'> {
  template_lines: StoredTemplateLine[];
  livemode: boolean;
}

function toTemplate(row: Omit<TemplateRow, 'livemode'> & { livemode?: boolean }): RecurringJournalTemplate {
  const { livemode: _mode, ...template } = row;
  return {
    ...template,
    template_lines: row.template_lines.map((line) => ({
      account_id: line.account_id,
      debit: toJsonNumber(line.debit),
      credit: toJsonNumber(line.credit),
      memo: line.memo,
    })),
  };
}

function storedTemplateLines(lines: readonly JournalLineInput[]): StoredTemplateLine[] {
  return lines.map((line) => ({ account_id: line.account_id, debit: line.debit ?? '0', credit: line.credit ?? '0', memo: line.memo ?? null }));
}

/** A template posts as it stands, so its lines must balance and its accounts be postable when saved. */
async function checkTemplateLines(db: Db, entityId: string, lines: readonly JournalLineInput[]): Promise<void> {
  const check = checkEntry(lines);
  if (!check.ok) {
    throw new ApiError('journal_entry_unbalanced', {
      param: 'template_lines',
      hint: `Template lines must balance: debits ${check.debits.toString()}, credits ${check.credits.toString()}.`,
      details: { total_debits: toJsonNumber(check.debits), total_credits: toJsonNumber(check.credits) },
    });
  }
  await resolvePostingAccounts(db, entityId, lines, { allowControlAccounts: false, param: 'template_lines' });
}

export async function getTemplate(db: Db, entityId: string, templateId: string, options: { lock?: boolean } = {}): Promise<RecurringJournalTemplate> {
  const row = await db.maybeOne<TemplateRow>(
    `SELECT ${COLUMNS} FROM recurring_journal_templates WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, templateId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such recurring journal entry template in this entity.' });
  return toTemplate(row);
}

export async function createTemplate(
  db: Db,
  actor: { entityId: string; userId: string; livemode: boolean },
  input: RecurringJournalTemplateCreate,
): Promise<RecurringJournalTemplate> {
  await checkTemplateLines(db, actor.entityId, input.template_lines);
  const row = await db.one<TemplateRow>(
    `INSERT INTO recurring_journal_templates (id, entity_id, name, description, memo, frequency, start_date, end_date, next_run_date,
       auto_post, is_active, template_lines, livemode, created_by_user_id, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${COLUMNS}`,
    [
      newId(),
      actor.entityId,
      input.name,
      input.description ?? null,
      input.memo ?? null,
      input.frequency,
      input.start_date,
      input.end_date ?? null,
      nextRunDate(input.start_date, input.frequency, null, input.end_date ?? null),
      input.auto_post ?? true,
      input.is_active ?? true,
      JSON.stringify(storedTemplateLines(input.template_lines)),
      actor.livemode,
      actor.userId,
      input.metadata ?? {},
    ],
  );
  return toTemplate(row);
}

export async function updateTemplate(
  db: Db,
  entityId: string,
  templateId: string,
  patch: RecurringJournalTemplateUpdate,
): Promise<{ template: RecurringJournalTemplate; previous: Partial<RecurringJournalTemplate> }> {
  const before = await getTemplate(db, entityId, templateId, { lock: true });
  if (patch.template_lines) await checkTemplateLines(db, entityId, patch.template_lines);
  if (patch.next_run_date && before.last_run_date && patch.next_run_date <= before.last_run_date) {
    throw new ApiError('parameter_invalid', {
      param: 'next_run_date',
      hint: `The template last ran for ${before.last_run_date}; the next run must come after it.`,
    });
  }
  // Moving the next run re-anchors the schedule there; so does a new start date.
  const startDate = patch.next_run_date ?? patch.start_date ?? before.start_date;
  const frequency: Frequency = patch.frequency ?? before.frequency;
  const endDate = patch.end_date !== undefined ? patch.end_date : before.end_date;
  if (endDate && endDate < startDate) {
    throw new ApiError('parameter_invalid', { param: 'end_date', hint: `The end date must be on or after the schedule's start (${startDate}).` });
  }
  const rescheduled = [patch.next_run_date, patch.start_date, patch.frequency, patch.end_date].some((value) => value !== undefined);
  const changes: Record<string, unknown> = {
    name: patch.name,
    description: patch.description,
    memo: patch.memo,
    auto_post: patch.auto_post,
    is_active: patch.is_active,
    metadata: patch.metadata,
    template_lines: patch.template_lines && JSON.stringify(storedTemplateLines(patch.template_lines)),
  };
  const sets: string[] = [];
  const params: unknown[] = [entityId, templateId];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  for (const [column, value] of Object.entries(changes)) if (value !== undefined) set(column, value);
  if (rescheduled) {
    set('start_date', startDate);
    set('frequency', frequency);
    set('end_date', endDate);
    set('next_run_date', nextRunDate(startDate, frequency, before.last_run_date, endDate));
  }
  if (sets.length === 0) return { template: before, previous: {} };
  await db.query(`UPDATE recurring_journal_templates SET ${sets.join(', ')}, updated_at = now() WHERE entity_id = $1 AND id = $2`, params);
  const template = await getTemplate(db, entityId, templateId);
  return { template, previous: previousAttributes(before, template) };
}

export async function deleteTemplate(db: Db, entityId: string, templateId: string): Promise<RecurringJournalTemplate> {
  const template = await getTemplate(db, entityId, templateId, { lock: true });
  await db.query('DELETE FROM recurring_journal_templates WHERE entity_id = $1 AND id = $2', [entityId, templateId]);
  return template;
}

export interface TemplatePage {
  data: RecurringJournalTemplate[];
  page: number;
  page_size: number;
  has_more: boolean;
}

/**
 * Page-number paging, which E27 asks for (the one list that has it). Newest first. The window is
 * bounded (page x page_size up to RECURRING_PAGE_WINDOW) so a deep page never scans without limit;
 * an entity's templates number in the tens, far inside it.
 */
export async function listTemplatesPage(
  db: Db,
  entityId: string,
  filters: { is_active?: boolean },
  paging: { page: number; page_size: number },
): Promise<TemplatePage> {
  const { page, page_size } = paging;
  if (page * page_size > RECURRING_PAGE_WINDOW) {
    throw new ApiError('parameter_invalid', {
      param: 'page',
      hint: `page x page_size may not exceed ${RECURRING_PAGE_WINDOW}; narrow the list with is_active.`,
    });
  }
  const params: unknown[] = [entityId, page_size + 1, (page - 1) * page_size];
  let where = 'entity_id = $1';
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where += ` AND is_active = $${params.length}`;
  }
  const rows = await db.query<TemplateRow>(
    `SELECT ${COLUMNS} FROM recurring_journal_templates WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3 -- recurring page window`,
    params,
  );
  return { data: rows.slice(0, page_size).map(toTemplate), page, page_size, has_more: rows.length > page_size };
}

// The runner's statements.

/** Entities with templates due on or before `asOfDate`; runs as app_worker (across entities). */
export async function entitiesWithDueTemplates(db: Db, asOfDate: string): Promise<string[]> {
  const rows = await db.query<{ entity_id: string }>(
    'SELECT DISTINCT entity_id FROM recurring_journal_templates WHERE is_active AND next_run_date <= $1::date ORDER BY entity_id',
    [asOfDate],
  );
  return rows.map((row) => row.entity_id);
}

export async function dueTemplateIds(db: Db, entityId: string, asOfDate: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM recurring_journal_templates WHERE entity_id = $1 AND is_active AND next_run_date <= $2::date ORDER BY next_run_date, id`,
    [entityId, asOfDate],
  );
  return rows.map((row) => row.id);
}

/**
 * Claims a template for its next occurrence: locked until the caller's transaction ends, and
 * skipped (undefined) when another runner holds it or it is no longer due. The lock re-reads the
 * row, so a claim always sees the next_run_date the last run committed.
 */
export function claimDueTemplate(db: Db, entityId: string, templateId: string, asOfDate: string): Promise<TemplateRow | undefined> {
  return db.maybeOne<TemplateRow>(
    `SELECT ${COLUMNS}, livemode FROM recurring_journal_templates
      WHERE entity_id = $1 AND id = $2 AND is_active AND next_run_date <= $3::date
      FOR UPDATE SKIP LOCKED`,
    [entityId, templateId, asOfDate],
  );
}

/** After an occurrence is posted (or drafted): move the schedule on, in the same transaction. */
export async function advanceTemplate(db: Db, template: TemplateRow, occurrenceDate: string): Promise<void> {
  await db.query(
    `UPDATE recurring_journal_templates SET last_run_date = $3, next_run_date = $4, last_error = NULL, updated_at = now()
      WHERE entity_id = $1 AND id = $2`,
    [template.entity_id, template.id, occurrenceDate, nextRunDate(template.start_date, template.frequency, occurrenceDate, template.end_date)],
  );
}

export async function recordTemplateError(
  db: Db,
  entityId: string,
  templateId: string,
  error: { code: string; message: string; occurrence_date: string },
): Promise<void> {
  await db.query(`UPDATE recurring_journal_templates SET last_error = $3 WHERE entity_id = $1 AND id = $2`, [
    entityId,
    templateId,
    { ...error, failed_at: new Date().toISOString() },
  ]);
}
