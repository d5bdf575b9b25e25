/**
 * Recurring schedules, pure. Dates are ISO `YYYY-MM-DD` strings (calendar dates, no time zone).
 *
 * Occurrence k of a schedule is its anchor plus k intervals, computed from the anchor every time
 * (never from the previous occurrence), so a month-end anchor stays at month ends: Jan 31 →
 * Feb 28 (29 in a leap year) → Mar 31 → Apr 30, instead of drifting to the 28th.
 */
import { isoDateOf } from '../dates';
export const FREQUENCIES = ['daily', 'weekly', 'biweekly', 'monthly', 'quarterly', 'semiannually', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const STEP: Record<Frequency, { days?: number; months?: number }> = {
  daily: { days: 1 },
  weekly: { days: 7 },
  biweekly: { days: 14 },
  monthly: { months: 1 },
  quarterly: { months: 3 },
  semiannually: { months: 6 },
  yearly: { months: 12 },
};

const DAY_MS = 86_400_000;

function parts(date: string): [number, number, number] {
  const [year, month, day] = date.split('-').map(Number);
  return [year, month, day];
}

function format(time: number): string {
  return isoDateOf(time);
}

const toTime = (date: string) => {
  const [year, month, day] = parts(date);
  return Date.UTC(year, month - 1, day);
};

function addDays(date: string, days: number): string {
  return format(toTime(date) + days * DAY_MS);
}

/** Adds whole months, clamping the day to the last day of the target month. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = parts(date);
  const target = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(target / 12);
  const targetMonth = target - targetYear * 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return format(Date.UTC(targetYear, targetMonth, Math.min(day, lastDay)));
}

function daysBetween(from: string, to: string): number {
  return Math.round((toTime(to) - toTime(from)) / DAY_MS);
}

/** Occurrence `k` (0 is the anchor itself). */
export function occurrence(anchor: string, frequency: Frequency, k: number): string {
  const step = STEP[frequency];
  return step.days ? addDays(anchor, step.days * k) : addMonths(anchor, step.months! * k);
}

/** The first occurrence strictly after `date` (the anchor itself when `date` is before it). */
export function occurrenceAfter(anchor: string, frequency: Frequency, date: string): string {
  if (date < anchor) return anchor;
  const step = STEP[frequency];
  let k: number;
  if (step.days) {
    k = Math.floor(daysBetween(anchor, date) / step.days);
  } else {
    const [ay, am] = parts(anchor);
    const [dy, dm] = parts(date);
    k = Math.floor((dy * 12 + dm - (ay * 12 + am)) / step.months!);
  }
  // k lands on or just before `date`; step forward until strictly after (at most twice).
  let candidate = occurrence(anchor, frequency, k);
  while (candidate <= date) candidate = occurrence(anchor, frequency, ++k);
  return candidate;
}

/** The first occurrence on or after `date`. */
function occurrenceOnOrAfter(anchor: string, frequency: Frequency, date: string): string {
  return date <= anchor ? anchor : occurrenceAfter(anchor, frequency, addDays(date, -1));
}

/** Every occurrence from `from` through `through` (inclusive): what a runner owes as of `through`. */
export function occurrencesThrough(anchor: string, frequency: Frequency, from: string, through: string, endDate?: string | null): string[] {
  const dates: string[] = [];
  const last = endDate && endDate < through ? endDate : through;
  for (let date = occurrenceOnOrAfter(anchor, frequency, from); date <= last; date = occurrenceAfter(anchor, frequency, date)) dates.push(date);
  return dates;
}

/**
 * The next date a schedule is due after `lastRunDate` (the anchor itself when nothing ran since
 * it), or null when that is past `endDate`.
 */
export function nextRunDate(anchor: string, frequency: Frequency, lastRunDate: string | null, endDate: string | null): string | null {
  const next = lastRunDate ? occurrenceAfter(anchor, frequency, lastRunDate) : anchor;
  return endDate && next > endDate ? null : next;
}
