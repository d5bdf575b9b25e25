/**
 * The webhook dispatcher function. An EventBridge rule on the domain event bus invokes it
 * asynchronously with each event the outbox publishes; it queues the event for every enabled
 * endpoint of the event's entity that subscribes to its type (once per endpoint, however often
 * the event arrives) and sends it to each at once, concurrently, recording every attempt. A
 * failed attempt is left in the deliveries table with its next attempt time, for the retry
 * function (functions/platform/retry-webhooks.ts). An invocation that fails outright is retried by
 * Lambda and then lands on the dead-letter queue; the outbox keeps the event either way.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import type { EventEnvelope } from '../../shared/events/outbox';
import { dispatchEvent } from '../../shared/webhooks/dispatcher';

export async function handler(event: EventBridgeEvent<string, EventEnvelope>): Promise<{ event: string; attempted: number }> {
  const envelope = event.detail;
  if (typeof envelope?.id !== 'string' || typeof envelope.entity_id !== 'string' || typeof envelope.type !== 'string') {
    throw new Error(`not a domain event: ${JSON.stringify(event).slice(0, 300)}`);
  }
  const attempted = await dispatchEvent(envelope);
  if (attempted > 0) console.log(JSON.stringify({ level: 'INFO', message: 'webhook event dispatched', event: envelope.id, type: envelope.type, attempted }));
  return { event: envelope.id, attempted };
}
