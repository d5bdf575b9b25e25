/**
 * The webhook retry function, run every minute by an EventBridge schedule. It claims the due
 * deliveries (retries on the backoff schedule, resends, test pings, and anything a dispatcher
 * invocation left or lost) with FOR UPDATE SKIP LOCKED, so overlapping runs split the work, and
 * keeps its pool of attempts full until nothing is due or its time is nearly up. It stops claiming
 * one attempt's timeout (and a margin) before the function's, so every attempt it starts ends and
 * is recorded; a lease that outlives a crash returns the delivery to the next run.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { deliveryConfig } from '../../shared/webhooks/delivery';
import { runDueDeliveries } from '../../shared/webhooks/dispatcher';

/** Time kept back, after the last claim, for its transactions around the HTTP attempt. */
const MARGIN_MS = 10_000;

export async function handler(_event: ScheduledEvent, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<{ attempted: number }> {
  const config = deliveryConfig();
  const stopClaimingAt = Date.now() + context.getRemainingTimeInMillis() - config.timeoutMs - MARGIN_MS;
  const attempted = await runDueDeliveries(stopClaimingAt, { config });
  if (attempted > 0) console.log(JSON.stringify({ level: 'INFO', message: 'webhook retries run', attempted }));
  return { attempted };
}
