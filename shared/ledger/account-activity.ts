/**
 * One GL account's lines over a date range, with opening, running and closing balances, paged by
 * a keyset on (entry_date, line id). Every balance comes from aggregates that do not grow with the
 * page's depth: the day sums of gl_daily_balances for whole days, and the journal lines of the
 * cursor's own day; so the last page costs what the first does.
 *
 * Balances are on the account's normal side. Balance sheet accounts carry everything posted
 * before start_date; revenue and expense accounts start from zero at the fiscal year containing
 * start_date; the retained earnings account also carries the profit or loss of the fiscal years
 * before it, as the trial balance shows them.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount, toJsonNumber, type Amount } from '../money';
import { fiscalYearStart } from './fiscal-calendar';
import type { GlAccountType } from './schemas/gl-account';
import type { AccountActivity } from './schemas/financial-report';

interface AccountActivityRequest {
  account_id: string;
  start_date?: string;
  end_date: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

interface AccountRow {
  id: string;
  code: string;
  name: string;
  type: GlAccountType;
  system_key: string | null;
}

interface LineRow {
  id: string;
  entry_date: string;
  entry_id: string;
  entry_number: string;
  memo: string | null;
  source_type: string;
  source_id: string | null;
  debit: string;
  credit: string;
}

const DEBIT_NORMAL: readonly GlAccountType[] = ['asset', 'expense'];

interface Totals {
  /** Debits minus credits that open the range (see the module comment for which postings count). */
  opening: Amount;
  debits: string;
  credits: string;
  /** Whether the cursor is a line of the account in the range (true without a cursor). */
  cursorFound: boolean;
  /** Debits minus credits from the range start up to and including the cursor line (0 without one). */
  throughCursor: string;
  /** The cursor line's own debit minus credit (0 without one). */
  cursorNet: string;
}

/**
 * The opening balance, the range's debits and credits, and where the cursor stands, in one
 * statement over the day sums (whole days) and the lines of the cursor's own day, so a page
 * deep in the range costs what the first does.
 */
async function rangeTotals(db: Db, entityId: string, account: AccountRow, range: { start: string; end: string; cursor?: string }): Promise<Totals> {
  const profitAndLoss = account.type === 'revenue' || account.type === 'expense';
  const retained = account.system_key === 'retained_earnings';
  const fyStart = profitAndLoss || retained ? await fiscalYearStart(db, entityId, range.start) : null;
  const row = await db.one<{ opening: string; debits: string; credits: string; cursor_found: boolean; through_cursor: string; cursor_net: string }>(
    `WITH c AS (SELECT entry_date, id, debit - credit AS net FROM journal_lines
                 WHERE entity_id = $1 AND account_id = $2 AND id = $6::uuid AND entry_date BETWEEN $3::date AND $4::date)
     SELECT coalesce(sum(debit_total - credit_total) FILTER (WHERE balance_date < $3::date AND ($5::date IS NULL OR balance_date >= $5::date)), 0) AS opening,
            coalesce(sum(debit_total) FILTER (WHERE balance_date >= $3::date), 0) AS debits,
            coalesce(sum(credit_total) FILTER (WHERE balance_date >= $3::date), 0) AS credits,
            $6::uuid IS NULL OR EXISTS (SELECT 1 FROM c) AS cursor_found,
            (SELECT coalesce(sum(net), 0) FROM c) AS cursor_net,
            coalesce(sum(debit_total - credit_total) FILTER (WHERE balance_date >= $3::date AND balance_date < (SELECT entry_date FROM c)), 0)
              + (SELECT coalesce(sum(l.debit - l.credit), 0) FROM c JOIN journal_lines l
                  ON l.entity_id = $1 AND l.account_id = $2 AND l.entry_date = c.entry_date AND l.id <= c.id) AS through_cursor
       FROM gl_daily_balances
      WHERE entity_id = $1 AND account_id = $2 AND balance_date <= $4::date`,
    [entityId, account.id, range.start, range.end, profitAndLoss ? fyStart : null, range.cursor ?? null],
  );
  let opening = amount(row.opening);
  if (retained) {
    // Every earlier fiscal year's profit or loss closes into retained earnings.
    const closed = await db.one<{ net: string }>(
      `SELECT coalesce(sum(d.debit_total - d.credit_total), 0) AS net
         FROM gl_daily_balances d JOIN gl_accounts a ON a.entity_id = d.entity_id AND a.id = d.account_id
        WHERE d.entity_id = $1 AND a.type IN ('revenue', 'expense') AND d.balance_date < $2::date`,
      [entityId, fyStart],
    );
    opening = opening.plus(closed.net);
  }
  return { opening, debits: row.debits, credits: row.credits, cursorFound: row.cursor_found, throughCursor: row.through_cursor, cursorNet: row.cursor_net };
}

export async function accountActivity(db: Db, entityId: string, request: AccountActivityRequest): Promise<AccountActivity> {
  const account = await db.maybeOne<AccountRow>('SELECT id, code, name, type, system_key FROM gl_accounts WHERE entity_id = $1 AND id = $2', [
    entityId,
    request.account_id,
  ]);
  if (!account) throw new ApiError('not_found', { param: 'account_id', hint: 'No GL account with this id in this entity.' });
  const endDate = request.end_date;
  const startDate = request.start_date ?? (await fiscalYearStart(db, entityId, endDate));
  if (endDate < startDate) {
    throw new ApiError('parameter_invalid', { param: 'end_date', hint: 'end_date (default today) must be on or after start_date.' });
  }

  const debitNormal = DEBIT_NORMAL.includes(account.type);
  const onNormalSide = (netDebit: Amount) => (debitNormal ? netDebit : netDebit.negated());
  if (request.starting_after && request.ending_before) {
    throw new ApiError('parameter_invalid', { param: 'ending_before', hint: 'Pass starting_after or ending_before, not both.' });
  }
  const cursorParam = request.ending_before ? 'ending_before' : 'starting_after';
  const cursor = request.ending_before ?? request.starting_after;
  const totals = await rangeTotals(db, entityId, account, { start: startDate, end: endDate, cursor });
  if (!totals.cursorFound) {
    throw new ApiError('parameter_invalid', { param: cursorParam, hint: 'The cursor is not the id of a line of this account in this range.' });
  }
  // A page scans the (entity, account, date, id) index from its cursor: forwards after
  // starting_after (or from the range start), backwards before ending_before, then put back in date
  // order. On the cursor's side the cursor alone bounds the scan; the range's other end bounds the far side.
  const backwards = request.ending_before !== undefined;
  const cursorRow = `(SELECT c.entry_date, c.id FROM journal_lines c WHERE c.entity_id = $1 AND c.id = $4::uuid)`;
  const [range, bound] = backwards
    ? [`l.entry_date >= $3::date AND (l.entry_date, l.id) < ${cursorRow}`, startDate]
    : cursor
      ? [`(l.entry_date, l.id) > ${cursorRow} AND l.entry_date <= $3::date`, endDate]
      : [`l.entry_date BETWEEN $4::date AND $3::date`, endDate];
  const direction = backwards ? 'DESC' : 'ASC';
  const rows = await db.query<LineRow>(
    `SELECT l.id, l.entry_date, l.entry_id, e.entry_number, coalesce(l.memo, e.memo) AS memo, e.source_type, e.source_id, l.debit, l.credit
       FROM journal_lines l JOIN journal_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
      WHERE l.entity_id = $1 AND l.account_id = $2 AND ${range}
      ORDER BY l.entry_date ${direction}, l.id ${direction}
      LIMIT $5`,
    [entityId, account.id, bound, cursor ?? startDate, request.limit + 1],
  );
  const hasMore = rows.length > request.limit;
  const page = backwards ? rows.slice(0, request.limit).reverse() : rows.slice(0, request.limit);
  // The balance just before the page: after a starting_after cursor, everything through it; before
  // an ending_before cursor, everything before it less the page's own lines.
  const pageNet = page.reduce((net, row) => net.plus(row.debit).minus(row.credit), amount(0));
  const before = backwards ? totals.opening.plus(totals.throughCursor).minus(totals.cursorNet).minus(pageNet) : totals.opening.plus(totals.throughCursor);
  let running = before;
  const lines = page.map((row) => {
    running = running.plus(row.debit).minus(row.credit);
    return {
      id: row.id,
      date: row.entry_date,
      journal_entry_id: row.entry_id,
      entry_number: row.entry_number,
      memo: row.memo,
      source_type: row.source_type,
      source_id: row.source_id,
      debit: toJsonNumber(row.debit),
      credit: toJsonNumber(row.credit),
      running_balance: toJsonNumber(onNormalSide(running)),
    };
  });
  return {
    object: 'account_activity',
    account_id: account.id,
    code: account.code,
    name: account.name,
    type: account.type,
    normal_balance: debitNormal ? 'debit' : 'credit',
    start_date: startDate,
    end_date: endDate,
    opening_balance: toJsonNumber(onNormalSide(totals.opening)),
    total_debits: toJsonNumber(totals.debits),
    total_credits: toJsonNumber(totals.credits),
    closing_balance: toJsonNumber(onNormalSide(totals.opening.plus(totals.debits).minus(totals.credits))),
    lines,
    has_more: hasMore,
    next_cursor: hasMore ? ((backwards ? page[0] : page.at(-1))?.id ?? null) : null,
  };
}
