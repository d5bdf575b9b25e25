/**
 * The quote expiry job, run by an EventBridge schedule (hourly): records order.expired once for each
 * quote whose expires_at has passed (shared/orders/expire-quotes.ts). The quote is already expired
 * by the read-time rule; the job only announces it.
 *
 * Quotes whose expires_at is at or before the schedule's own time (the event's `time`) are
 * announced, so a delayed or retried invocation does the same work; `as_of` in the event (an ISO
 * timestamp) overrides it for a manual run. Running twice, or two at once, announces each lapse once.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { runQuoteExpiry } from '../../shared/orders/expire-quotes';

export async function handler(
  event: Partial<ScheduledEvent> & { as_of?: string },
  _context?: Context,
): Promise<{ as_of: string; expired: number; failed: number }> {
  const asOf = new Date(event?.as_of ?? event?.time ?? new Date().toISOString());
  if (Number.isNaN(asOf.getTime())) throw new Error(`as_of must be an ISO 8601 timestamp, got ${event?.as_of}`);
  const result = await runQuoteExpiry(asOf);
  const summary = { as_of: result.as_of, expired: result.expired.length, failed: result.failures.length };
  console.log(JSON.stringify({ level: result.failures.length ? 'WARN' : 'INFO', message: 'quote expiry run', ...summary, failures: result.failures }));
  return summary;
}
