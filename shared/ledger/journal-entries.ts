/**
 * SQL for journal entries and their lines. Every statement also filters by entity.
 *
 * A draft keeps its lines in `draft_lines` (editable); posting moves them to journal_lines, which
 * is append-only. Posting itself goes through shared/ledger/post-journal-entry.ts, the one path
 * every module uses.
 */
import type { Db } from '../db/database';
import { notePosting } from '../db/dry-run-transaction';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { entityFilters } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import { amount, toJsonNumber, type AmountLike } from '../money';
import type { JournalEntry, JournalEntryStatus, JournalEntryUpdate, JournalLine, JournalLineInput } from './schemas/journal-entry';
import { resolvePostingAccounts } from './gl-accounts';

export const MANUAL_SOURCE = 'manual';

const HEADER = `e.id, e.entity_id, e.entry_number, e.status, e.entry_date, e.memo, e.source_type, e.source_id, e.period_id,
  e.draft_lines, e.created_by_user_id, e.posted_by_user_id, e.posted_by_key_id, e.posted_at, e.reversal_of_id, e.reversed_by_id,
  e.reversed_at, e.metadata, e.created_at, e.updated_at`;

export interface StoredLine {
  id: string;
  line_number: number;
  account_id: string;
  debit: string;
  credit: string;
  memo: string | null;
}

interface HeaderRow extends Omit<JournalEntry, 'object' | 'lines' | 'total_debits' | 'total_credits'> {
  draft_lines: StoredLine[] | null;
}

function toLine(line: StoredLine): JournalLine {
  return {
    id: line.id,
    line_number: line.line_number,
    account_id: line.account_id,
    debit: toJsonNumber(line.debit),
    credit: toJsonNumber(line.credit),
    memo: line.memo,
  };
}

function toEntry(row: HeaderRow, lines: StoredLine[]): JournalEntry {
  const { draft_lines: _draft, ...header } = row;
  return {
    ...header,
    object: 'journal_entry',
    total_debits: toJsonNumber(lines.reduce((total, line) => total.plus(line.debit), amount(0))),
    total_credits: toJsonNumber(lines.reduce((total, line) => total.plus(line.credit), amount(0))),
    lines: lines.map(toLine),
  };
}

/** The posted lines of several entries in one query. */
async function postedLines(db: Db, entityId: string, entryIds: string[]): Promise<Map<string, StoredLine[]>> {
  const byEntry = new Map<string, StoredLine[]>();
  if (entryIds.length === 0) return byEntry;
  const rows = await db.query<StoredLine & { entry_id: string }>(
    `SELECT entry_id, id, line_number, account_id, debit, credit, memo FROM journal_lines
      WHERE entity_id = $1 AND entry_id = ANY($2::uuid[]) ORDER BY entry_id, line_number`,
    [entityId, entryIds],
  );
  for (const { entry_id, ...line } of rows) {
    const list = byEntry.get(entry_id) ?? [];
    list.push(line);
    byEntry.set(entry_id, list);
  }
  return byEntry;
}

async function withLines(db: Db, entityId: string, rows: HeaderRow[]): Promise<JournalEntry[]> {
  const lines = await postedLines(
    db,
    entityId,
    rows.filter((row) => row.status !== 'draft').map((row) => row.id),
  );
  return rows.map((row) => toEntry(row, row.draft_lines ?? lines.get(row.id) ?? []));
}

export async function getJournalEntry(db: Db, entityId: string, entryId: string, options: { lock?: boolean } = {}): Promise<JournalEntry> {
  const row = await db.maybeOne<HeaderRow>(`SELECT ${HEADER} FROM journal_entries e WHERE e.entity_id = $1 AND e.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    entryId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such journal entry in this entity.' });
  return (await withLines(db, entityId, [row]))[0];
}

/** Entries by id in one query (documents expanding their postings), oldest first. */
export async function journalEntriesByIds(db: Db, entityId: string, entryIds: string[]): Promise<JournalEntry[]> {
  if (entryIds.length === 0) return [];
  const rows = await db.query<HeaderRow>(
    `SELECT ${HEADER} FROM journal_entries e WHERE e.entity_id = $1 AND e.id = ANY($2::uuid[]) ORDER BY e.created_at, e.id`,
    [entityId, entryIds],
  );
  return withLines(db, entityId, rows);
}

export interface JournalEntryFilters {
  status?: JournalEntryStatus;
  entry_date_gte?: string;
  entry_date_lte?: string;
  source_type?: string;
  source_id?: string;
  account_id?: string;
}

export async function listJournalEntries(db: Db, entityId: string, filters: JournalEntryFilters, page: PageRequest): Promise<Page<JournalEntry>> {
  const { where, params, add } = entityFilters('e', entityId);
  add((n) => `e.status = ${n}`, filters.status);
  add((n) => `e.entry_date >= ${n}::date`, filters.entry_date_gte);
  add((n) => `e.entry_date <= ${n}::date`, filters.entry_date_lte);
  add((n) => `e.source_type = ${n}`, filters.source_type);
  add((n) => `e.source_id = ${n}::uuid`, filters.source_id);
  if (filters.account_id) {
    params.push(filters.account_id, JSON.stringify([{ account_id: filters.account_id }]));
    where.push(
      `(EXISTS (SELECT 1 FROM journal_lines l WHERE l.entity_id = e.entity_id AND l.entry_id = e.id AND l.account_id = $${params.length - 1}::uuid)
        OR e.draft_lines @> $${params.length}::jsonb)`,
    );
  }
  const result = await keysetPage<HeaderRow>(db, { table: 'journal_entries', alias: 'e', select: HEADER, where, params }, page);
  return { ...result, data: await withLines(db, entityId, result.data) };
}

/** Lines as stored: ids kept (a draft's line ids survive posting), numbered from 1, amounts as decimal text. */
export function storedLines(
  lines: readonly { id?: string; account_id: string; debit?: AmountLike | null; credit?: AmountLike | null; memo?: string | null }[],
): StoredLine[] {
  return lines.map((line, index) => ({
    id: line.id ?? newId(),
    line_number: index + 1,
    account_id: line.account_id,
    debit: amount(line.debit ?? 0).toString(),
    credit: amount(line.credit ?? 0).toString(),
    memo: line.memo ?? null,
  }));
}

export interface DraftInput {
  entry_date: string;
  memo?: string | null;
  lines: readonly JournalLineInput[];
  metadata?: Record<string, string>;
  source_type?: string;
  source_id?: string | null;
}

/** Saves a draft: accounts must exist and be active (control accounts refused), balance is checked when it is posted. */
export async function createDraftJournalEntry(db: Db, actor: { entityId: string; userId: string | null }, input: DraftInput): Promise<JournalEntry> {
  await resolvePostingAccounts(db, actor.entityId, input.lines, { allowControlAccounts: false });
  const row = await db.one<HeaderRow>(
    `WITH e AS (
       INSERT INTO journal_entries (id, entity_id, status, entry_date, memo, source_type, source_id, draft_lines, created_by_user_id, metadata)
       VALUES ($1, $2, 'draft', $3, $4, $5, $6, $7, $8, $9) RETURNING *
     ) SELECT ${HEADER} FROM e`,
    [
      newId(),
      actor.entityId,
      input.entry_date,
      input.memo ?? null,
      input.source_type ?? MANUAL_SOURCE,
      input.source_id ?? null,
      JSON.stringify(storedLines(input.lines)),
      actor.userId,
      input.metadata ?? {},
    ],
  );
  return toEntry(row, row.draft_lines ?? []);
}

function refuseUnlessDraft(entry: JournalEntry, action: string): void {
  if (entry.status !== 'draft') {
    throw new ApiError('journal_entry_not_draft', {
      param: 'id',
      hint: `This entry is ${entry.status}; only drafts can be ${action}. Correct a posted entry by reversing it.`,
      details: { current_status: entry.status },
    });
  }
}

export async function getDraftForPosting(db: Db, entityId: string, entryId: string): Promise<JournalEntry> {
  const entry = await getJournalEntry(db, entityId, entryId, { lock: true });
  refuseUnlessDraft(entry, 'posted');
  return entry;
}

export async function updateDraftJournalEntry(
  db: Db,
  entityId: string,
  entryId: string,
  patch: JournalEntryUpdate,
): Promise<{ entry: JournalEntry; previous: Partial<JournalEntry> }> {
  const before = await getJournalEntry(db, entityId, entryId, { lock: true });
  refuseUnlessDraft(before, 'changed');
  if (patch.lines) await resolvePostingAccounts(db, entityId, patch.lines, { allowControlAccounts: false });
  const sets: string[] = [];
  const params: unknown[] = [entityId, entryId];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (patch.entry_date !== undefined) set('entry_date', patch.entry_date);
  if (patch.memo !== undefined) set('memo', patch.memo);
  if (patch.metadata !== undefined) set('metadata', patch.metadata);
  if (patch.lines !== undefined) set('draft_lines', JSON.stringify(storedLines(patch.lines)));
  if (sets.length === 0) return { entry: before, previous: {} };
  await db.query(`UPDATE journal_entries SET ${sets.join(', ')}, updated_at = now() WHERE entity_id = $1 AND id = $2`, params);
  const entry = await getJournalEntry(db, entityId, entryId);
  return { entry, previous: previousAttributes(before, entry) };
}

export async function deleteDraftJournalEntry(db: Db, entityId: string, entryId: string): Promise<JournalEntry> {
  const entry = await getJournalEntry(db, entityId, entryId, { lock: true });
  refuseUnlessDraft(entry, 'deleted');
  await db.query('DELETE FROM journal_entries WHERE entity_id = $1 AND id = $2', [entityId, entryId]);
  return entry;
}

export interface PostedHeader {
  id: string;
  entry_number: string;
  entry_date: string;
  memo: string | null;
  source_type: string;
  source_id: string | null;
  period_id: string | null;
  line_count: number;
  total_amount: string;
  created_by_user_id: string | null;
  posted_by_user_id: string | null;
  posted_by_key_id: string | null;
  reversal_of_id: string | null;
  metadata: Record<string, string>;
}

/**
 * Writes a posted entry: its header (a new row, or the draft `draftId` turned posted) and then all
 * its lines in one statement, which the database checks against the header.
 */
export async function writePostedEntry(db: Db, entityId: string, header: PostedHeader, lines: StoredLine[], draftId?: string): Promise<JournalEntry> {
  const row = draftId
    ? await db.one<HeaderRow>(
        `WITH e AS (
           UPDATE journal_entries SET status = 'posted', entry_number = $3, entry_date = $4, memo = $5, period_id = $6, draft_lines = NULL,
                  line_count = $7, total_amount = $8, posted_by_user_id = $9, posted_by_key_id = $10, posted_at = now(), updated_at = now()
            WHERE entity_id = $1 AND id = $2 AND status = 'draft'
           RETURNING *
         ) SELECT ${HEADER} FROM e`,
        [
          entityId,
          draftId,
          header.entry_number,
          header.entry_date,
          header.memo,
          header.period_id,
          header.line_count,
          header.total_amount,
          header.posted_by_user_id,
          header.posted_by_key_id,
        ],
      )
    : await db.one<HeaderRow>(
        `WITH e AS (
           INSERT INTO journal_entries (entity_id, id, entry_number, status, entry_date, memo, source_type, source_id, period_id, line_count,
                  total_amount, posted_by_user_id, posted_by_key_id, posted_at, reversal_of_id, metadata, created_by_user_id)
           VALUES ($1, $2, $3, 'posted', $4, $5, $6, $7, $8, $9, $10, $11, $12, now(), $13, $14, $15) RETURNING *
         ) SELECT ${HEADER} FROM e`,
        [
          entityId,
          header.id,
          header.entry_number,
          header.entry_date,
          header.memo,
          header.source_type,
          header.source_id,
          header.period_id,
          header.line_count,
          header.total_amount,
          header.posted_by_user_id,
          header.posted_by_key_id,
          header.reversal_of_id,
          header.metadata,
          header.created_by_user_id,
        ],
      );
  const written = await db.query<StoredLine>(
    `INSERT INTO journal_lines (id, entity_id, entry_id, line_number, account_id, debit, credit, memo, entry_date)
     SELECT r.id, $1, $2, r.line_number, r.account_id, r.debit, r.credit, r.memo, $3
       FROM jsonb_to_recordset($4::jsonb) AS r(id uuid, line_number integer, account_id uuid, debit numeric, credit numeric, memo text)
      ORDER BY r.line_number
     RETURNING id, line_number, account_id, debit, credit, memo`,
    [entityId, row.id, header.entry_date, JSON.stringify(lines)],
  );
  const entry = toEntry(
    row,
    written.sort((a, b) => a.line_number - b.line_number),
  );
  // A dry run answers with the entries it would post (shared/db/transaction-writes.ts).
  notePosting(db, entry);
  return entry;
}

/** Marks a posted entry reversed by `reversalId` (the one change a posted entry allows). */
export async function markReversed(db: Db, entityId: string, entryId: string, reversalId: string): Promise<JournalEntry> {
  await db.query(
    `UPDATE journal_entries SET status = 'reversed', reversed_by_id = $3, reversed_at = now(), updated_at = now()
      WHERE entity_id = $1 AND id = $2 AND status = 'posted'`,
    [entityId, entryId, reversalId],
  );
  return getJournalEntry(db, entityId, entryId);
}
