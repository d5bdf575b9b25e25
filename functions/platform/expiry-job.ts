/**
 * The handler of an hourly expiry job (vendor credits, quotes). Records whose expires_at is at or
 * before the schedule's own time (the event's `time`) are handled, so a delayed or retried
 * invocation does the same work; `as_of` in the event (an ISO timestamp) overrides it for a manual
 * run. The run itself claims each record once, so running twice, or two at once, is safe.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '../../shared/powertools';

interface ExpiryRun {
  as_of: string;
  expired: readonly unknown[];
  failures: readonly unknown[];
}

type ExpiryJobEvent = Partial<ScheduledEvent> & { as_of?: string };

export function expiryJob(
  name: string,
  run: (asOf: Date) => Promise<ExpiryRun>,
): (event: ExpiryJobEvent, context?: Context) => Promise<{ as_of: string; expired: number; failed: number }> {
  return async (event) => {
    const asOf = new Date(event?.as_of ?? event?.time ?? new Date().toISOString());
    if (Number.isNaN(asOf.getTime())) throw new Error(`as_of must be an ISO 8601 timestamp, got ${event?.as_of}`);
    const result = await run(asOf);
    const summary = { as_of: result.as_of, expired: result.expired.length, failed: result.failures.length };
    if (result.failures.length) logger.warn(`${name} run`, { ...summary, failures: result.failures });
    else logger.info(`${name} run`, { ...summary, failures: result.failures });
    return summary;
  };
}
