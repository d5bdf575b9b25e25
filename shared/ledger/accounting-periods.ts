/**
 * SQL for accounting periods and their close workflow. Every statement also filters by entity.
 *
 * Locking, so that no posting ever lands in a period closed before the posting committed:
 *   - a posting takes the entity's period-set lock in SHARE mode and its period row FOR SHARE;
 *   - creating periods takes the period-set lock exclusively (a posting that found no period
 *     cannot race a new period covering its date);
 *   - every status move takes the period row FOR UPDATE, so it waits for postings in flight, and
 *     postings that come after it see the new status.
 */
import type { Db } from '../db/database';
import { lockEntityResource } from '../db/sql';
import { acceptsPostings, monthlyPeriods, nextPeriodStatus, type PeriodAction, type PeriodStatus } from './period-status';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { AccountingPeriod, AccountingPeriodCreate, FiscalYearCreate } from './schemas/accounting-period';
import { requirePermission } from '../auth/permissions';

const COLUMNS = `id, 'accounting_period' AS object, entity_id, period_name, fiscal_year, start_date, end_date, status,
  close_requested_by, close_requested_at, close_approved_by, close_approved_at, closed_by, closed_at,
  reopened_by, reopened_at, reopen_reason, created_at, updated_at`;

const PERIOD_SET = 'accounting_periods';
/** The shared form of lockEntityResource(PERIOD_SET): postings hold it together, period creation excludes them. */
const PERIOD_SET_SHARED = `pg_advisory_xact_lock_shared(hashtextextended(current_entity_id()::text || ':${PERIOD_SET}', 0))`;

const CLOSE_PERMISSION = 'accounting.close_periods';

export async function getPeriod(db: Db, entityId: string, periodId: string, options: { lock?: boolean } = {}): Promise<AccountingPeriod> {
  const row = await db.maybeOne<AccountingPeriod>(
    `SELECT ${COLUMNS} FROM accounting_periods WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, periodId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such accounting period in this entity.' });
  return row;
}

/** A period's identity as error details carry it. */
const periodSummary = (period: Pick<AccountingPeriod, 'id' | 'period_name' | 'status'>) => ({
  id: period.id,
  period_name: period.period_name,
  status: period.status,
});

async function refuseOverlap(db: Db, entityId: string, ranges: { start_date: string; end_date: string }[], param: string): Promise<void> {
  const clash = await db.maybeOne<AccountingPeriod>(
    `SELECT ${COLUMNS} FROM accounting_periods p
      WHERE p.entity_id = $1
        AND EXISTS (SELECT 1 FROM jsonb_to_recordset($2::jsonb) AS r(start_date date, end_date date)
                     WHERE p.start_date <= r.end_date AND r.start_date <= p.end_date)
      ORDER BY p.start_date LIMIT 1`,
    [entityId, JSON.stringify(ranges)],
  );
  if (clash) {
    throw new ApiError('period_overlap', {
      param,
      hint: `The dates overlap period ${clash.period_name} (${clash.start_date} to ${clash.end_date}).`,
      details: { period: periodSummary(clash) },
    });
  }
}

async function insertPeriods(db: Db, entityId: string, periods: (AccountingPeriodCreate & { fiscal_year: number })[]): Promise<AccountingPeriod[]> {
  const rows = periods.map((period) => ({ id: newId(), ...period }));
  return db.query<AccountingPeriod>(
    `INSERT INTO accounting_periods (id, entity_id, period_name, fiscal_year, start_date, end_date)
     SELECT r.id, $1, r.period_name, r.fiscal_year, r.start_date, r.end_date
       FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, period_name text, fiscal_year integer, start_date date, end_date date)
      ORDER BY r.start_date
     RETURNING ${COLUMNS}`,
    [entityId, JSON.stringify(rows)],
  );
}

export async function createPeriod(db: Db, entityId: string, input: AccountingPeriodCreate): Promise<AccountingPeriod> {
  await db.query(lockEntityResource(PERIOD_SET));
  await refuseOverlap(db, entityId, [input], 'start_date');
  const [period] = await insertPeriods(db, entityId, [{ ...input, fiscal_year: input.fiscal_year ?? Number(input.end_date.slice(0, 4)) }]);
  return period;
}

/** The twelve monthly periods of a fiscal year, all or nothing. */
export async function createFiscalYear(db: Db, entityId: string, input: FiscalYearCreate): Promise<AccountingPeriod[]> {
  const periods = monthlyPeriods(input.fiscal_year, input.start_month ?? 1).map((period) => ({ ...period, fiscal_year: input.fiscal_year }));
  await db.query(lockEntityResource(PERIOD_SET));
  await refuseOverlap(db, entityId, periods, 'fiscal_year');
  return insertPeriods(db, entityId, periods);
}

export function listPeriods(db: Db, entityId: string, filters: { status?: PeriodStatus; fiscal_year?: number }): Promise<AccountingPeriod[]> {
  const where = ['entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.status) {
    params.push(filters.status);
    where.push(`status = $${params.length}`);
  }
  if (filters.fiscal_year !== undefined) {
    params.push(filters.fiscal_year);
    where.push(`fiscal_year = $${params.length}`);
  }
  return db.query<AccountingPeriod>(`SELECT ${COLUMNS} FROM accounting_periods WHERE ${where.join(' AND ')} ORDER BY start_date, id`, params);
}

// Times are when the move took effect (the statement after the row lock was granted), not when
// its transaction began: every posting the move waited for has an earlier posted_at.
const MOVES: Record<PeriodAction, string> = {
  request_close: 'close_requested_by = $3, close_requested_at = statement_timestamp()',
  approve_close: 'close_approved_by = $3, close_approved_at = statement_timestamp(), closed_by = $3, closed_at = statement_timestamp()',
  reopen: 'reopened_by = $3, reopened_at = statement_timestamp(), reopen_reason = $5',
};

/**
 * Moves a period through its workflow, recording who and when. Approving and reopening need the
 * user permission accounting.close_periods (403 insufficient_permissions); the approver must not
 * be the requester (403 segregation_of_duties); a move the status does not allow is 409
 * period_invalid_transition with the current status.
 */
export async function movePeriod(
  db: Db,
  actor: { entityId: string; userId: string },
  periodId: string,
  action: PeriodAction,
  reason?: string,
): Promise<{ period: AccountingPeriod; previous: AccountingPeriod }> {
  const { entityId, userId } = actor;
  const before = await getPeriod(db, entityId, periodId, { lock: true });
  if (action !== 'request_close') {
    await requirePermission(db, actor, CLOSE_PERMISSION, { hint: `Approving a close and reopening a period need the ${CLOSE_PERMISSION} permission.` });
  }
  const next = nextPeriodStatus(before.status, action);
  if (!next) {
    throw new ApiError('period_invalid_transition', {
      param: 'id',
      hint: `A period that is ${before.status} cannot be ${action === 'request_close' ? 'put up for close' : action === 'approve_close' ? 'approved for close' : 'reopened'}.`,
      details: { current_status: before.status },
    });
  }
  if (action === 'approve_close' && before.close_requested_by === userId) {
    throw new ApiError('segregation_of_duties', {
      hint: 'The user who requested the close cannot approve it; another user with accounting.close_periods must.',
    });
  }
  const params: unknown[] = [entityId, periodId, userId, next];
  if (action === 'reopen') params.push(reason);
  const period = await db.one<AccountingPeriod>(
    `UPDATE accounting_periods SET status = $4, ${MOVES[action]}, updated_at = now()
      WHERE entity_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    params,
  );
  return { period, previous: before };
}

/**
 * For a posting dated `date`: the period covering it, locked FOR SHARE until the posting's
 * transaction ends, or null when no period covers it (postings without periods are allowed, as
 * in QuickBooks). A period that does not accept postings is 422 period_closed naming it. A closed
 * (or close-requested) period closes the books up to its end, as a closing date does: a date no
 * period covers is refused too when a later period does not accept postings, since a posting there
 * would change that period's balances.
 */
export async function lockPeriodForPosting(db: Db, entityId: string, date: string, param = 'entry_date'): Promise<AccountingPeriod | null> {
  // The uncorrelated subquery runs once, before the scan (a one-time filter): the shared lock is
  // held before the period is looked up, in the same round trip. The covering period, if any,
  // starts before every later one, so it comes first.
  const found = await db.maybeOne<AccountingPeriod & { covers: boolean }>(
    `SELECT ${COLUMNS}, start_date <= $2::date AS covers FROM accounting_periods
      WHERE (SELECT ${PERIOD_SET_SHARED}::text) IS NOT NULL
        AND entity_id = $1
        AND ((start_date <= $2::date AND end_date >= $2::date) OR (start_date > $2::date AND status <> 'open'))
      ORDER BY start_date
      LIMIT 1
      FOR SHARE`,
    [entityId, date],
  );
  if (!found) return null;
  const { covers, ...period } = found;
  if (!covers) {
    throw new ApiError('period_closed', {
      param,
      hint: `${date} comes before accounting period ${period.period_name}, which is ${period.status === 'closed' ? 'closed' : 'awaiting close approval'}: the books are closed up to its end. Reopen it or post on a later date.`,
      details: { period: periodSummary(period) },
    });
  }
  if (!acceptsPostings(period.status)) {
    throw new ApiError('period_closed', {
      param,
      hint: `${date} falls in accounting period ${period.period_name}, which is ${period.status === 'closed' ? 'closed' : 'awaiting close approval'}; reopen it or post on another date.`,
      details: { period: periodSummary(period) },
    });
  }
  return period;
}
