/**
 * The journal entry of a stock movement: the inventory account moves by exactly the change the
 * movement made to the valuation (PostedMovement.value_change, in cents), against the movement's
 * counterpart accounts. Whatever the counterparts do not balance goes to inventory_adjustments: the
 * cost of units that settle negative stock (units beyond the layers are worth nothing until stock
 * arrives to settle them), or a count's gain or loss when the adjustment account is the counterpart.
 */
import type { Db } from '../db/database';
import { lockPeriodForPosting } from '../ledger/accounting-periods';
import { postJournalEntry, type PostingContext, type PostingLine } from '../ledger/post-journal-entry';
import type { SystemAccountKey } from '../ledger/schemas/gl-account';
import { amount, ZERO, type Amount, type AmountLike } from '../money';

/** A counterpart of the inventory account, as a signed debit (negative: a credit), in cents. */
export interface StockCounterpart {
  system_key: SystemAccountKey;
  debit: AmountLike;
}

/**
 * Debit inventory valueChange (credit when negative), the counterparts as given, and the rest to
 * inventory_adjustments so the entry balances; accounts named twice are netted, zero lines left out,
 * debits before credits. Every amount is in whole cents.
 */
export function stockPostingLines(valueChange: AmountLike, counterparts: readonly StockCounterpart[]): PostingLine[] {
  const net = new Map<SystemAccountKey, Amount>([['inventory', amount(valueChange)]]);
  for (const counterpart of counterparts) net.set(counterpart.system_key, (net.get(counterpart.system_key) ?? ZERO).plus(counterpart.debit));
  const unbalanced = [...net.values()].reduce((sum, value) => sum.plus(value), ZERO);
  net.set('inventory_adjustments', (net.get('inventory_adjustments') ?? ZERO).minus(unbalanced));
  // Debits first, then credits, as a journal reads.
  const entries = [...net];
  return [
    ...entries.filter(([, value]) => value.gt(0)).map(([system_key, value]): PostingLine => ({ system_key, debit: value.toString() })),
    ...entries.filter(([, value]) => value.lt(0)).map(([system_key, value]): PostingLine => ({ system_key, credit: value.negated().toString() })),
  ];
}

export interface StockPosting {
  /** The UTC date the entry is dated (the movement's effective date). */
  entry_date: string;
  /** The request parameter a closed period names. */
  date_param: string;
  memo: string;
  source_type: string;
  source_id: string;
  metadata?: Record<string, string>;
  value_change: Amount;
  counterparts: readonly StockCounterpart[];
}

/**
 * Posts the movement's entry; nothing when every line nets to 0, though a date in a closed period
 * is refused all the same (422 period_closed), so a movement never lands in a closed period.
 * Returns the entry's id.
 */
export async function postStockValue(db: Db, ctx: PostingContext, posting: StockPosting): Promise<string | null> {
  const lines = stockPostingLines(posting.value_change, posting.counterparts);
  if (lines.length === 0) {
    await lockPeriodForPosting(db, ctx.entityId, posting.entry_date, posting.date_param);
    return null;
  }
  const entry = await postJournalEntry(
    db,
    ctx,
    {
      entry_date: posting.entry_date,
      memo: posting.memo,
      source_type: posting.source_type,
      source_id: posting.source_id,
      lines,
      metadata: posting.metadata,
    },
    { dateParam: posting.date_param },
  );
  return entry.id;
}
