import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const changelog = readFileSync(new URL('../../docs/changelog.md', import.meta.url), 'utf8');

/** The entries' dates, in the order they stand. */
const entryDates = [...changelog.matchAll(/^## (\d{4}-\d{2}-\d{2})/gm)].map((match) => match[1]);

describe('docs/changelog.md', () => {
  it('lists its entries oldest first', () => {
    expect(entryDates.length).toBeGreaterThan(0);
    expect([...entryDates].sort()).toEqual(entryDates);
  });

  it('has the 2026-09-22 entry for the reorder demand semantics, with every changed figure', () => {
    const start = changelog.indexOf('## 2026-09-22');
    expect(start).toBeGreaterThanOrEqual(0);
    const entry = changelog.slice(start, changelog.indexOf('\n## ', start + 1));
    for (const name of [
      'demand_avg_per_day',
      'daily_demand',
      'net_suggested_qty',
      'sales_and_builds',
      'consumption',
      'current_demand_units',
      'run_rate_365',
      'blended_daily',
      'demand_window',
      'order_multiple',
    ]) {
      expect(entry).toContain(`\`${name}\``);
    }
  });
});
