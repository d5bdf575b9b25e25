/** The fiscal year of a date, from the spans of the fiscal years the periods define (shared/ledger/fiscal-calendar.ts). */
import { describe, expect, it } from 'vitest';
import { fiscalYearStartOf, monthEnd, monthStart } from '../../shared/ledger/fiscal-calendar';

const april2026 = { first_day: '2025-04-01', last_day: '2026-03-31' };

describe('fiscalYearStartOf', () => {
  it('is January 1 without a full fiscal year, whatever single periods exist', () => {
    expect(fiscalYearStartOf('2026-06-15', [])).toBe('2026-01-01');
    // A month closed on its own is not a fiscal year.
    expect(fiscalYearStartOf('2025-12-15', [{ first_day: '2025-12-01', last_day: '2025-12-31' }])).toBe('2025-01-01');
  });

  it('is the start of the full fiscal year covering the date', () => {
    expect(fiscalYearStartOf('2025-04-01', [april2026])).toBe('2025-04-01');
    expect(fiscalYearStartOf('2026-03-31', [april2026])).toBe('2025-04-01');
    // A 52-week year that starts on a Sunday.
    expect(fiscalYearStartOf('2026-01-10', [{ first_day: '2025-12-28', last_day: '2026-12-26' }])).toBe('2025-12-28');
  });

  it('carries the start month of the nearest full year to dates no full year covers', () => {
    expect(fiscalYearStartOf('2026-04-01', [april2026])).toBe('2026-04-01');
    expect(fiscalYearStartOf('2027-02-10', [april2026])).toBe('2026-04-01');
    expect(fiscalYearStartOf('2025-03-31', [april2026])).toBe('2024-04-01');
    // The latest full year starting on or before the date wins when the start month changed.
    const july2028 = { first_day: '2027-07-01', last_day: '2028-06-30' };
    expect(fiscalYearStartOf('2029-01-05', [april2026, july2028])).toBe('2028-07-01');
    expect(fiscalYearStartOf('2027-05-05', [april2026, july2028])).toBe('2027-04-01');
  });

  it('never starts before year 1', () => {
    expect(fiscalYearStartOf('0001-02-01', [april2026])).toBe('0001-01-01');
  });
});

describe('month arithmetic', () => {
  it('moves by whole months and knows month ends, leap years included', () => {
    expect(monthStart('2026-01-31', -1)).toBe('2025-12-01');
    expect(monthStart('2026-11-15', 14)).toBe('2028-01-01');
    expect(monthStart('0050-03-10', 0)).toBe('0050-03-01');
    expect([monthEnd('2024-02-10'), monthEnd('2026-02-01'), monthEnd('2100-02-01'), monthEnd('2000-02-01'), monthEnd('2026-04-30')]).toEqual([
      '2024-02-29',
      '2026-02-28',
      '2100-02-28',
      '2000-02-29',
      '2026-04-30',
    ]);
  });
});
