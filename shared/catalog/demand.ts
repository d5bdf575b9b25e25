/**
 * Demand arithmetic (the 2026-09-22 semantics): demand is built from physical decrements, fulfilled
 * sales plus posted build_consume draws, each counted once for the product it drew. Rates are units
 * per day with 4 decimals, rounded half away from zero.
 */
import { amount, QUANTITY_SCALE, round, type Amount, type AmountLike } from '../money';

export const RUN_RATE_WINDOWS = [30, 90, 180, 365] as const;
export type RunRateWindow = (typeof RUN_RATE_WINDOWS)[number];

/** Weights of the blended rate: recent demand counts most, the year smooths seasonality. */
const BLEND_WEIGHTS: Record<RunRateWindow, string> = { 30: '0.4', 90: '0.3', 180: '0.2', 365: '0.1' };

export const DEMAND_BASES = ['sales', 'sales_and_builds', 'builds', 'consumption'] as const;
export type DemandBasis = (typeof DEMAND_BASES)[number];

/** Which transaction types a basis counts (as decrements: their quantities are negated). */
export function basisTransactionTypes(basis: DemandBasis): string[] {
  switch (basis) {
    case 'sales':
      return ['sale_fulfillment'];
    case 'builds':
      return ['build_consume'];
    case 'sales_and_builds':
      return ['sale_fulfillment', 'build_consume'];
    case 'consumption':
      // Every physical decrement except moves between locations, which leave the entity's stock unchanged.
      return ['sale_fulfillment', 'build_consume', 'adjust'];
  }
}

export function runRate(units: AmountLike, days: number): Amount {
  if (!Number.isInteger(days) || days <= 0) throw new Error('days must be a positive integer');
  return round(amount(units).dividedBy(days), QUANTITY_SCALE);
}

export function blendedDaily(rates: Record<RunRateWindow, AmountLike>): Amount {
  let total = amount(0);
  for (const window of RUN_RATE_WINDOWS) total = total.plus(amount(rates[window]).times(BLEND_WEIGHTS[window]));
  return round(total, QUANTITY_SCALE);
}

/**
 * Average daily demand over the product's own history at the location: the last 365 days, or
 * since its first stock movement when that is more recent, so a new product is not diluted by days
 * it did not exist.
 */
export function averageDailyDemand(unitsLast365: AmountLike, daysSinceFirstActivity: number | null): Amount {
  if (daysSinceFirstActivity === null) return amount(0);
  const days = Math.min(365, Math.max(1, Math.ceil(daysSinceFirstActivity)));
  return runRate(unitsLast365, days);
}
