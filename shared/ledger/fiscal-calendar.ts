/**
 * The entity's fiscal calendar, as its accounting periods define it. QuickBooks keeps a fiscal
 * year start month per company; here the periods say it:
 *
 * - a date inside a full fiscal year (the periods of one fiscal_year spanning twelve months, as
 *   POST /v1/periods/fiscal-years creates them, or a 52/53-week year) belongs to that year, which
 *   starts on its first period's start;
 * - any other date belongs to the fiscal year that starts on the 1st of the start month on or
 *   before it. The start month is that of the latest full fiscal year starting on or before the
 *   date, else of the earliest full fiscal year, else January (calendar years).
 *
 * Periods created one at a time (a month closed on its own) never move the fiscal year: they do
 * not make a full year.
 */
import type { Db } from '../db/database';

interface FiscalYearSpan {
  first_day: string;
  last_day: string;
}

const DAY_MS = 86_400_000;
const pad = (value: number) => String(value).padStart(2, '0');
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => isoOf(utc(date) + days * DAY_MS);

/** The first day of the month `months` after the month of `date` (negative: before). */
export function monthStart(date: string, months = 0): string {
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${pad((index % 12) + 1)}-01`;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The last day of the month of `date`. */
export function monthEnd(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const days = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1];
  return `${date.slice(0, 8)}${pad(days)}`;
}

/** The whole number of days from `from` to `to`. */
export const daysBetween = (from: string, to: string): number => Math.round((utc(to) - utc(from)) / DAY_MS);

/** A fiscal year of 52 weeks to a year and a week: what a business's accounting year can be. */
const isFullYear = (span: FiscalYearSpan) => {
  const days = daysBetween(span.first_day, span.last_day) + 1;
  return days >= 364 && days <= 372;
};

/** The first day of the fiscal year containing `date` (see the module comment for the rule). */
export function fiscalYearStartOf(date: string, years: readonly FiscalYearSpan[]): string {
  const full = years.filter(isFullYear).sort((a, b) => (a.first_day < b.first_day ? -1 : a.first_day > b.first_day ? 1 : 0));
  const covering = full.find((span) => span.first_day <= date && date <= span.last_day);
  if (covering) return covering.first_day;
  const model = full.filter((span) => span.first_day <= date).at(-1) ?? full[0];
  const startMonth = model ? Number(model.first_day.slice(5, 7)) : 1;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const startYear = month >= startMonth ? year : year - 1;
  // Before year 1 there is no date to start at.
  return startYear < 1 ? '0001-01-01' : `${String(startYear).padStart(4, '0')}-${pad(startMonth)}-01`;
}

/** The span of each fiscal year the entity's periods define. */
export function fiscalYears(db: Db, entityId: string): Promise<FiscalYearSpan[]> {
  return db.query<FiscalYearSpan>(
    `SELECT min(start_date) AS first_day, max(end_date) AS last_day FROM accounting_periods WHERE entity_id = $1 GROUP BY fiscal_year`,
    [entityId],
  );
}

/** The first day of the fiscal year containing `date`, read from the entity's periods. */
export async function fiscalYearStart(db: Db, entityId: string, date: string): Promise<string> {
  return fiscalYearStartOf(date, await fiscalYears(db, entityId));
}
