/**
 * Where committed events go. On AWS: EventBridge (source `bizops.api`, detail-type = event type);
 * locally and in tests: an in-process bus with the same contract. Chosen once at start-up.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { awsClient } from '../aws-clients';
import { runAlone, withTransaction } from '../db/database';
import { UUID_PATTERN } from '../ids';
import { logger, type Log } from '../powertools';
import type { EventEnvelope } from './outbox';

/** The `source` of every domain event on the bus; the webhook dispatcher's rule matches on it. */
export const EVENT_SOURCE = 'bizops.api';

export interface EventPublisher {
  publish(events: EventEnvelope[]): Promise<void>;
}

/** PutEvents takes at most 10 entries a call. */
const PUT_EVENTS_MAX_ENTRIES = 10;

/**
 * The SDK's EventBridge client, created with the first publish. Imported statically: through an
 * `import()` esbuild bundles the whole package (every command, about 150 kB) and evaluates it on
 * the first publish; imported, it keeps PutEvents and the client alone.
 */
const eventBridge = () => awsClient((config) => new EventBridgeClient(config), 'AWS_ENDPOINT_URL_EVENTBRIDGE');

/** EventBridge's PutEvents, through the SDK's client. */
export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly busName: string) {}

  async publish(events: EventEnvelope[]): Promise<void> {
    const client = eventBridge();
    for (let start = 0; start < events.length; start += PUT_EVENTS_MAX_ENTRIES) {
      const batch = events.slice(start, start + PUT_EVENTS_MAX_ENTRIES);
      const result = await client.send(
        new PutEventsCommand({
          Entries: batch.map((event) => ({
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify(event),
            Time: new Date(event.created_at),
          })),
        }),
      );
      if (result.FailedEntryCount) {
        const reasons = [...new Set((result.Entries ?? []).flatMap((entry) => entry.ErrorCode ?? []))].join(', ');
        throw new Error(`EventBridge rejected ${result.FailedEntryCount} of ${batch.length} events${reasons ? ` (${reasons})` : ''}`);
      }
    }
  }
}

export type EventListener = (event: EventEnvelope) => void | Promise<void>;

/** The local bus: delivers to subscribers in process (the webhook dispatcher subscribes here). */
export class InProcessEventBus implements EventPublisher {
  private readonly listeners = new Set<EventListener>();
  readonly published: EventEnvelope[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async publish(events: EventEnvelope[]): Promise<void> {
    for (const event of events) {
      this.published.push(event);
      if (this.published.length > 1000) this.published.shift();
      for (const listener of this.listeners) await listener(event);
    }
  }
}

let publisher: EventPublisher | undefined;

export function configurePublisher(next: EventPublisher): void {
  publisher = next;
}

function getPublisher(): EventPublisher {
  if (!publisher) {
    const bus = process.env.EVENT_BUS_NAME;
    publisher = bus ? new EventBridgePublisher(bus) : new InProcessEventBus();
  }
  return publisher;
}

/**
 * Marks a request's outbox rows as published, as the request's entity, in one round trip
 * (runAlone). The ids are the recorder's own UUIDs, checked again before they are inlined.
 */
async function markPublished(ids: string[], entityId: string): Promise<void> {
  for (const id of ids) if (!UUID_PATTERN.test(id)) throw new Error('event id is not a UUID');
  await runAlone({ role: 'app_user', entityId }, `UPDATE event_outbox SET published_at = now() WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})`);
}

/**
 * Publishes what a request recorded, after its commit. A failure here loses nothing: the rows
 * stay unpublished and the sweeper sends them.
 */
export async function publishCommitted(entityId: string, events: EventEnvelope[], log: Log = logger): Promise<void> {
  if (events.length === 0) return;
  try {
    await getPublisher().publish(events);
    await markPublished(
      events.map((event) => event.id),
      entityId,
    );
  } catch (error) {
    log.warn('event publish deferred to the sweeper', { error });
  }
}

/**
 * Publishes outbox rows left unpublished for longer than `graceSeconds` (a request that crashed
 * between commit and publish). Rows are claimed with SKIP LOCKED so concurrent sweepers split the work.
 * Delivery is at least once: subscribers de-duplicate on the event id.
 */
export async function sweepOutbox(options: { graceSeconds?: number; batchSize?: number } = {}): Promise<number> {
  const { graceSeconds = 30, batchSize = 100 } = options;
  return withTransaction({ role: 'app_worker' }, async (db) => {
    const rows = await db.query<{ id: string; payload: EventEnvelope }>(
      `SELECT id, payload FROM event_outbox
        WHERE published_at IS NULL AND created_at < now() - make_interval(secs => $1)
        ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [graceSeconds, batchSize],
    );
    if (rows.length === 0) return 0;
    await getPublisher().publish(rows.map((row) => row.payload));
    await db.query('UPDATE event_outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [rows.map((row) => row.id)]);
    return rows.length;
  });
}
