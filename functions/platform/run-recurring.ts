/**
 * The recurring journal entry runner, run once a day by an EventBridge schedule.
 *
 * The as-of date is the schedule's own date (the event's `time`), so a delayed or retried
 * invocation still posts exactly the occurrences of its day; `as_of_date` in the event overrides
 * it for a manual catch-up. Running twice, or two at once, posts each occurrence once.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { runRecurringTemplates } from '../../shared/ledger/run-recurring';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function handler(
  event: Partial<ScheduledEvent> & { as_of_date?: string },
  _context?: Context,
): Promise<{ as_of_date: string; posted: number; drafted: number; failed: number }> {
  const asOfDate = event?.as_of_date ?? (event?.time ?? new Date().toISOString()).slice(0, 10);
  if (!ISO_DATE.test(asOfDate)) throw new Error(`as_of_date must be YYYY-MM-DD, got ${asOfDate}`);
  const result = await runRecurringTemplates(asOfDate);
  const summary = {
    as_of_date: asOfDate,
    posted: result.entries.filter((entry) => entry.status === 'posted').length,
    drafted: result.entries.filter((entry) => entry.status === 'draft').length,
    failed: result.failures.length,
  };
  console.log(
    JSON.stringify({ level: result.failures.length ? 'WARN' : 'INFO', message: 'recurring journal entries run', ...summary, failures: result.failures }),
  );
  return summary;
}
