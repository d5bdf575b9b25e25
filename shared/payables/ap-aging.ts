/**
 * AP aging (E23) as of any date, rebuilt from history rather than read from today's balances.
 *
 * A posted bill counts on date D when its AP entry (dated bill_date) is on or before D and its void
 * reversal, if any, is after D. Its balance on D is bill_total minus the AP payment applications
 * dated on or before D and not voided on or before D. Today's amount_paid already is the sum of the
 * live applications, so the query starts from it and corrects it by the applications dated after D
 * only (see bucketRows). That is the same history the ledger holds, so the grand total equals
 * the accounts payable balance on D, which the answer carries alongside.
 */
import type { Db } from '../db/database';
import { amount, sum, toJsonNumber, type Amount } from '../money';
import type { ApAging } from './schemas/ap-aging';
import { creditBalanceThrough, entriesDatedThrough } from '../ledger/ledger-reads';
import { partyNamesInOrder } from '../parties/parties';

const AGING_BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
type Bucket = (typeof AGING_BUCKETS)[number];

type BucketRow = { vendor_id: string; bucket: number; balance: string };

/** The bucket index (into AGING_BUCKETS) of a due date on the as-of date: current when not yet past due, then 1–30, 31–60, 61–90, over 90 days. */
const BUCKET_SQL = (due: string) =>
  `CASE WHEN $2::date - ${due} <= 0 THEN 0 WHEN $2::date - ${due} <= 30 THEN 1 WHEN $2::date - ${due} <= 60 THEN 2 WHEN $2::date - ${due} <= 90 THEN 3 ELSE 4 END`;

/**
 * The open balance on the as-of date per vendor and bucket. The bills that can be open on D are
 * the posted bills dated on or before D that were not paid off by D (open or partially paid today,
 * paid after D or at an unknown date, voided after D) and the few with an application voided after
 * D; paid bills older than that, the bulk of a long history, are never read. For each candidate,
 * today's balance_due is corrected by its applications dated after D (added back) and those
 * voided after D but applied on or before it (taken off again). Applications after D are looked
 * up only for the bills dated by D whose latest live application (last_applied_on) is after D,
 * through the (bill_id, applied_on) index: as of today none, a year back the bills paid on since,
 * rather than every application of the year.
 */
async function bucketRows(db: Db, entityId: string, asOfDate: string): Promise<BucketRow[]> {
  return db.query<BucketRow>(
    `WITH unvoided AS (
       SELECT a.bill_id, a.amount FROM ap_payment_applications a
        WHERE a.entity_id = $1 AND a.voided_on > $2::date AND a.applied_on <= $2::date
     ), gone AS (
       SELECT b.id FROM vendor_bills b
        WHERE b.entity_id = $1 AND b.journal_entry_id IS NOT NULL AND b.void_journal_entry_id = ANY($3::uuid[])
     ), candidates AS NOT MATERIALIZED (
       SELECT b.id, b.vendor_id, b.due_date, b.bill_total - b.amount_paid AS balance
         FROM vendor_bills b
        WHERE b.entity_id = $1 AND b.journal_entry_id IS NOT NULL AND b.bill_date <= $2::date
          AND (b.status <> 'paid' OR b.paid_off_on IS NULL OR b.paid_off_on > $2::date OR b.id IN (SELECT bill_id FROM unvoided))
          AND NOT EXISTS (SELECT 1 FROM gone g WHERE g.id = b.id)
     ), later AS (
       SELECT b.id AS bill_id, x.amount FROM vendor_bills b
        CROSS JOIN LATERAL (SELECT sum(a.amount) AS amount FROM ap_payment_applications a
                             WHERE a.entity_id = $1 AND a.bill_id = b.id AND a.applied_on > $2::date AND a.voided_on IS NULL) x
        WHERE b.entity_id = $1 AND b.journal_entry_id IS NOT NULL AND b.last_applied_on > $2::date AND b.bill_date <= $2::date
       UNION ALL
       SELECT u.bill_id, -sum(u.amount) FROM unvoided u GROUP BY u.bill_id
     ), balances AS (
       SELECT c.vendor_id, ${BUCKET_SQL('c.due_date')} AS bucket, c.balance + coalesce(l.amount, 0) AS balance
         FROM candidates c LEFT JOIN (SELECT bill_id, sum(amount) AS amount FROM later GROUP BY bill_id) l ON l.bill_id = c.id
     )
     SELECT vendor_id, bucket, sum(balance) AS balance FROM balances GROUP BY vendor_id, bucket HAVING sum(balance) <> 0`,
    [entityId, asOfDate, await voidsDatedThrough(db, entityId, asOfDate)],
  );
}

/** The void entries of posted bills that are dated on or before the as-of date (those bills were gone by then). */
async function voidsDatedThrough(db: Db, entityId: string, asOfDate: string): Promise<string[]> {
  const voids = await db.query<{ void_journal_entry_id: string }>(
    'SELECT void_journal_entry_id FROM vendor_bills WHERE entity_id = $1 AND journal_entry_id IS NOT NULL AND void_journal_entry_id IS NOT NULL',
    [entityId],
  );
  return entriesDatedThrough(
    db,
    entityId,
    voids.map((row) => row.void_journal_entry_id),
    asOfDate,
  );
}

export async function apAging(db: Db, entityId: string, asOfDate: string): Promise<Omit<ApAging, 'livemode'>> {
  // A large entity's estimate passes jit_above_cost, and compiling costs more than this query runs.
  await db.query('SET LOCAL jit = off');
  const rows = await bucketRows(db, entityId, asOfDate);
  // Vendors by name, then id.
  const named = await partyNamesInOrder(
    db,
    'vendor',
    entityId,
    rows.map((row) => row.vendor_id),
  );
  const vendors = new Map(
    named.map(({ id, name }) => [id, { id, name, buckets: Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, amount(0)])) as Record<Bucket, Amount> }]),
  );
  for (const row of rows) vendors.get(row.vendor_id)!.buckets[AGING_BUCKETS[row.bucket]] = amount(row.balance);
  const controlBalance = await creditBalanceThrough(db, entityId, 'accounts_payable', asOfDate);
  const list = [...vendors.values()];
  const totals = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, sum(list.map((vendor) => vendor.buckets[bucket]))])) as Record<Bucket, Amount>;
  const asNumbers = (buckets: Record<Bucket, Amount>) => ({
    ...(Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, toJsonNumber(buckets[bucket])])) as Record<Bucket, number>),
    total: toJsonNumber(sum(AGING_BUCKETS.map((bucket) => buckets[bucket]))),
  });
  return {
    object: 'ap_aging',
    as_of_date: asOfDate,
    vendors: list.map((vendor) => ({ id: vendor.id, name: vendor.name, ...asNumbers(vendor.buckets) })),
    totals: asNumbers(totals),
    accounts_payable_balance: toJsonNumber(controlBalance),
  };
}
