/**
 * Vendor credits (E16): SQL, issuance, void and expiry of one credit. Every change locks the
 * credit's row first, so a void, an expiry and AP payments spending the credit serialise on it.
 * The ledger entries are in credit-postings.ts.
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { formatNumber, nextNumber } from '../db/sequences';
import { isoDateOf, todayUtc } from '../dates';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, toFixedString } from '../money';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { getParty } from '../parties/parties';
import { issuanceLines, postedAmount, releaseLines } from './credit-postings';
import { getBillRow } from './vendor-bills';
import type { VendorCredit, VendorCreditApplication, VendorCreditCreate, VendorCreditStatus } from './schemas/vendor-credit';

const CREDIT_SCALE = 4;

const COLUMNS = `c.id, 'vendor_credit' AS object, c.entity_id, c.vendor_id, c.credit_number, c.amount, c.remaining_amount, c.voided_amount, c.forfeited_amount,
  c.source_type, c.source_id, c.status, to_char(c.credit_date, 'YYYY-MM-DD') AS credit_date, c.expires_at, c.currency, c.memo, c.metadata,
  c.created_by_user_id, c.journal_entry_id, c.voided_by, c.voided_at, c.void_reason, c.void_journal_entry_id, c.expired_at, c.expiry_journal_entry_id,
  c.created_at, c.updated_at`;

type Wire<T> = Omit<T, 'livemode'>;
/** Timestamps come back as Dates and serialise as ISO strings, as every store's do. */
export type CreditRow = Wire<VendorCredit>;
export type WireCredit = Wire<VendorCredit>;

const fixed = (value: string) => toFixedString(value, CREDIT_SCALE);

const toCredit = (row: CreditRow): WireCredit => ({
  ...row,
  amount: fixed(row.amount),
  remaining_amount: fixed(row.remaining_amount),
  voided_amount: fixed(row.voided_amount),
  forfeited_amount: fixed(row.forfeited_amount),
});

async function getCreditRow(db: Db, entityId: string, creditId: string, options: { lock?: boolean; param?: string } = {}): Promise<CreditRow> {
  const row = await db.maybeOne<CreditRow>(`SELECT ${COLUMNS} FROM vendor_credits c WHERE c.entity_id = $1 AND c.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    creditId,
  ]);
  if (!row) throw new ApiError('not_found', { param: options.param ?? 'id', hint: 'No such vendor credit in this entity.' });
  return row;
}

export async function getCredit(db: Db, entityId: string, creditId: string): Promise<WireCredit> {
  return toCredit(await getCreditRow(db, entityId, creditId));
}

interface Actor extends PostingContext {
  userId: string;
}

/** price_adjustment: a posted bill of the vendor, and the adjustments of that bill stay within its total. */
async function checkPriceAdjustment(db: Db, entityId: string, input: VendorCreditCreate): Promise<void> {
  if (!input.source_id) throw new ApiError('parameter_missing', { param: 'source_id', hint: 'A price_adjustment credit names the vendor bill it adjusts.' });
  const bill = await getBillRow(db, entityId, input.source_id, { lock: true }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'not_found')
      throw new ApiError('not_found', { param: 'source_id', hint: 'No such vendor bill in this entity.' });
    throw error;
  });
  if (bill.vendor_id !== input.vendor_id) {
    throw new ApiError('parameter_invalid', { param: 'source_id', hint: 'The bill belongs to another vendor.' });
  }
  if (!['open', 'partially_paid', 'paid'].includes(bill.status)) {
    throw new ApiError('vendor_bill_invalid_transition', {
      param: 'source_id',
      hint: 'Only a posted bill (open, partially_paid or paid) is adjusted by a vendor credit.',
      details: { current_status: bill.status },
    });
  }
  const adjusted = await db.one<{ total: string }>(
    `SELECT coalesce(sum(amount - voided_amount), 0) AS total FROM vendor_credits WHERE entity_id = $1 AND source_type = 'price_adjustment' AND source_id = $2`,
    [entityId, bill.id],
  );
  const room = amount(bill.bill_total).minus(amount(adjusted.total));
  if (amount(input.amount).gt(room)) {
    throw new ApiError('parameter_invalid', {
      param: 'amount',
      hint: `Price adjustments of bill ${bill.bill_number} cannot exceed its total; ${room.toString()} is left to adjust.`,
    });
  }
}

/** Issues a credit: debit vendor_returns_receivable, credit vendor_credits, dated credit_date. */
export async function createCredit(db: Db, actor: Actor, input: VendorCreditCreate, options: { sourceType?: string } = {}): Promise<WireCredit> {
  const { entityId } = actor;
  const vendor = (await getParty(db, 'vendor', entityId, input.vendor_id, { param: 'vendor_id' })) as { currency: string; is_archived: boolean };
  if (vendor.is_archived) throw new ApiError('party_archived', { param: 'vendor_id', hint: 'The vendor is archived; restore it to credit it.' });
  const sourceType = options.sourceType ?? input.source_type ?? 'manual';
  if (sourceType === 'price_adjustment') await checkPriceAdjustment(db, entityId, input);
  if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
    throw new ApiError('parameter_invalid', { param: 'expires_at', hint: 'expires_at must be in the future (null: the credit never expires).' });
  }
  const creditDate = input.credit_date ?? todayUtc();
  // Taken after every check that can refuse; a refused posting rolls the number back with it.
  const creditNumber = formatNumber('VC-', await nextNumber(db, entityId, 'vendor_credit'));
  const id = newId();
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: creditDate,
      memo: `Vendor credit ${creditNumber} (${sourceType})`,
      source_type: 'vendor_credit',
      source_id: id,
      lines: issuanceLines(input.amount, creditNumber),
    },
    { dateParam: 'credit_date' },
  );
  await db.query(
    `INSERT INTO vendor_credits (id, entity_id, credit_number, vendor_id, amount, remaining_amount, source_type, source_id, credit_date, expires_at, currency,
       memo, metadata, created_by_user_id, journal_entry_id)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      id,
      entityId,
      creditNumber,
      input.vendor_id,
      input.amount,
      sourceType,
      input.source_id ?? null,
      creditDate,
      input.expires_at ?? null,
      vendor.currency,
      input.memo ?? null,
      input.metadata ?? {},
      actor.userId,
      entry.id,
    ],
  );
  const credit = await getCredit(db, entityId, id);
  await actor.events.record('vendor_credit.created', credit);
  return credit;
}

const later = (a: string, b: string) => (a > b ? a : b);

/** Voids the unapplied balance (open or partially_applied): debit vendor_credits, credit vendor_returns_receivable. */
export async function voidCredit(db: Db, actor: Actor, creditId: string, reason: string | null | undefined): Promise<WireCredit> {
  const { entityId } = actor;
  const credit = await getCreditRow(db, entityId, creditId, { lock: true });
  if (credit.status !== 'open' && credit.status !== 'partially_applied') {
    throw new ApiError('vendor_credit_invalid_transition', {
      param: 'id',
      hint:
        credit.status === 'applied'
          ? 'The credit is applied in full: nothing is left to void. Void the AP payments that applied it first.'
          : `The credit is already ${credit.status}.`,
      details: { current_status: credit.status },
    });
  }
  const remaining = credit.remaining_amount;
  // Less than half a cent left posts nothing: the ledger holds the remaining in cents.
  const entry = postedAmount(remaining).isZero()
    ? undefined
    : await postJournalEntry(db, actor, {
        entry_date: later(todayUtc(), credit.credit_date),
        memo: `Void of vendor credit ${credit.credit_number}`,
        source_type: 'vendor_credit',
        source_id: credit.id,
        lines: releaseLines(remaining, `${credit.credit_number} void`),
      });
  await db.query(
    `UPDATE vendor_credits SET status = 'voided', voided_amount = remaining_amount, remaining_amount = 0, voided_by = $3, voided_at = now(), void_reason = $4,
       void_journal_entry_id = $5, updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, creditId, actor.userId, reason ?? null, entry?.id ?? null],
  );
  const voided = await getCredit(db, entityId, creditId);
  await actor.events.record('vendor_credit.voided', voided, { status: credit.status, remaining_amount: fixed(remaining) });
  return voided;
}

/**
 * The SQL condition that a vendor credit (its columns prefixed by `alias.`, or bare without one) is
 * due to expire at the timestamp parameter `asOf`: still open or partially applied, expires_at reached.
 */
function dueToExpireSql(asOf: string, alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('status')} IN ('open', 'partially_applied') AND ${column('expires_at')} <= ${asOf}`;
}

/**
 * Forfeits a credit's remaining balance if it is still open or partially applied and expires_at is
 * at or before `asOf`; the entry is dated the as-of date (or credit_date if later). Returns the
 * expired credit, or undefined when there was nothing to do (already moved, not yet due).
 */
export async function expireCredit(db: Db, ctx: PostingContext, creditId: string, asOf: Date): Promise<WireCredit | undefined> {
  const credit = await db.maybeOne<CreditRow>(
    `SELECT ${COLUMNS} FROM vendor_credits c WHERE c.entity_id = $1 AND c.id = $2 AND ${dueToExpireSql('$3', 'c')}
      FOR UPDATE SKIP LOCKED`,
    [ctx.entityId, creditId, asOf.toISOString()],
  );
  if (!credit) return undefined;
  const entry = postedAmount(credit.remaining_amount).isZero()
    ? undefined
    : await postJournalEntry(db, ctx, {
        entry_date: later(isoDateOf(asOf), credit.credit_date),
        memo: `Expiry of vendor credit ${credit.credit_number}`,
        source_type: 'vendor_credit',
        source_id: credit.id,
        lines: releaseLines(credit.remaining_amount, `${credit.credit_number} expired`),
      });
  await db.query(
    `UPDATE vendor_credits SET status = 'expired', forfeited_amount = remaining_amount, remaining_amount = 0, expired_at = now(), expiry_journal_entry_id = $3,
       updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [ctx.entityId, creditId, entry?.id ?? null],
  );
  const expired = await getCredit(db, ctx.entityId, creditId);
  await ctx.events.record('vendor_credit.expired', expired, { status: credit.status, remaining_amount: fixed(credit.remaining_amount) });
  return expired;
}

/** For the expiry job (app_worker): the entities holding credits due to expire. */
export async function entitiesWithExpiringCredits(db: Db, asOf: Date): Promise<string[]> {
  const rows = await db.query<{ entity_id: string }>(`SELECT DISTINCT entity_id FROM vendor_credits WHERE ${dueToExpireSql('$1')} ORDER BY entity_id`, [
    asOf.toISOString(),
  ]);
  return rows.map((row) => row.entity_id);
}

export async function expiringCreditIds(db: Db, entityId: string, asOf: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM vendor_credits WHERE entity_id = $1 AND ${dueToExpireSql('$2')} ORDER BY expires_at, id`, [
    entityId,
    asOf.toISOString(),
  ]);
  return rows.map((row) => row.id);
}

export interface CreditFilters {
  vendor_id?: string;
  status?: VendorCreditStatus;
}

export async function listCredits(db: Db, entityId: string, filters: CreditFilters, page: PageRequest): Promise<Page<WireCredit>> {
  const where = ['c.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const [column, value] of [
    ['vendor_id', filters.vendor_id],
    ['status', filters.status],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`c.${column} = $${params.length}`);
  }
  const result = await keysetPage<CreditRow>(db, { table: 'vendor_credits', alias: 'c', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toCredit) };
}

type ApplicationRow = Omit<Wire<VendorCreditApplication>, 'amount' | 'status'> & { amount: string; status: 'applied' | 'voided' };

/** The application events of these credits, oldest first, in one query. */
export async function applicationsOfCredits(db: Db, entityId: string, creditIds: string[]): Promise<Map<string, Wire<VendorCreditApplication>[]>> {
  const rows = await db.query<ApplicationRow>(
    `SELECT a.id, 'vendor_credit_application' AS object, a.vendor_credit_id, a.payment_id AS ap_payment_id, a.bill_id, b.bill_number, a.amount,
            to_char(a.applied_on, 'YYYY-MM-DD') AS applied_on, CASE WHEN a.voided_on IS NULL THEN 'applied' ELSE 'voided' END AS status,
            to_char(a.voided_on, 'YYYY-MM-DD') AS voided_on, a.created_at
       FROM ap_payment_applications a JOIN vendor_bills b ON b.entity_id = a.entity_id AND b.id = a.bill_id
      WHERE a.entity_id = $1 AND a.vendor_credit_id = ANY($2::uuid[])
      ORDER BY a.created_at, a.id`,
    [entityId, creditIds],
  );
  const byCredit = new Map<string, Wire<VendorCreditApplication>[]>();
  for (const row of rows) {
    byCredit.set(row.vendor_credit_id, [...(byCredit.get(row.vendor_credit_id) ?? []), { ...row, amount: fixed(row.amount) }]);
  }
  return byCredit;
}
