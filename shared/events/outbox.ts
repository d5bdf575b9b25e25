/**
 * The transactional outbox. A domain change records its event in the same transaction as the
 * change, so an event exists exactly when the change committed. An event belongs to the entity of
 * the key that caused it (the test twin for a test key), so row level security keeps test events
 * from live readers like any other record, and `livemode` says which mode it is. Publishing happens after commit
 * (right away by the request, and by the sweeper for anything a crash left behind).
 */
import type { EventType } from '../../events/types';
import type { KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { newId } from '../ids';
import { withLivemode } from '../schemas/livemode';
import { API_VERSION } from '../version';
import { payloadVersion } from './payload-versions';

export interface EventEnvelope {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  /** The version of this type's payload (data.object), from events/catalog.ts. */
  payload_version: number;
  created_at: string;
  entity_id: string;
  livemode: boolean;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  request: { id: string | null; idempotency_key: string | null };
}

export interface EventRecorder {
  record(type: EventType, object: unknown, previousAttributes?: Record<string, unknown>): Promise<EventEnvelope>;
  /** Events recorded so far by this request, for publishing after commit. */
  readonly recorded: EventEnvelope[];
  /** Takes in the events an operation of this batch recorded in the same transaction (shared/http/batch-operation.ts). */
  adopt(events: readonly EventEnvelope[]): void;
}

export interface RecorderOrigin {
  entityId: string;
  mode: KeyMode;
  requestId: string | null;
  idempotencyKey?: string;
}

/**
 * The recorder of a read: a read runs in a READ ONLY transaction, where the outbox insert could
 * only fail, so it records nothing and is shared by every read instead of built for each.
 */
export const READ_ONLY_RECORDER: EventRecorder = Object.freeze({
  recorded: Object.freeze([]) as unknown as EventEnvelope[],
  record: () => Promise.reject(new Error('a read-only request records no events')),
  adopt: () => {
    throw new Error('a read-only request records no events');
  },
});

/**
 * Nested collections an event leaves out of its object, by the object's `object` name. An order
 * travels as a list entry shows it (header and totals, no lines or adjustments), as Stripe events
 * carry unexpanded objects: a 500-line order would exceed EventBridge's 256 KB entry limit, and
 * subscribers fetch the lines with GET /v1/orders/{id}.
 */
const EVENT_OBJECT_OMITS: Record<string, readonly string[]> = { order: ['lines', 'adjustments'] };

function eventObject<T>(value: T): T {
  const name = (value as { object?: unknown } | null)?.object;
  const omit = typeof name === 'string' ? EVENT_OBJECT_OMITS[name] : undefined;
  if (!omit) return value;
  return Object.fromEntries(Object.entries(value as object).filter(([key]) => !omit.includes(key))) as T;
}

/**
 * A recorder of the request's events. `storage` 'enclosing': the request is an operation of a
 * batch, whose runner stores the events of all its operations with one statement before it commits
 * (storeEvents), so nothing is stored here.
 */
export function createEventRecorder(db: Db, origin: RecorderOrigin, storage: 'own' | 'enclosing' = 'own'): EventRecorder {
  const recorded: EventEnvelope[] = [];
  return {
    recorded,
    adopt: (events) => void recorded.push(...events),
    async record(type, object, previousAttributes) {
      const event: EventEnvelope = {
        id: newId(),
        object: 'event',
        type,
        api_version: API_VERSION,
        payload_version: payloadVersion(type),
        created_at: new Date().toISOString(),
        entity_id: origin.entityId,
        livemode: origin.mode === 'live',
        // The object carries livemode like the same object in a response; so does the envelope.
        data: { object: withLivemode(eventObject(object), origin.mode === 'live'), ...(previousAttributes && { previous_attributes: previousAttributes }) },
        request: { id: origin.requestId, idempotency_key: origin.idempotencyKey ?? null },
      };
      // JSON round trip: the stored payload is exactly what subscribers will receive.
      // The text goes to the jsonb column as is (an order with 500 lines is stringified once, not twice).
      const text = JSON.stringify(event);
      const payload = JSON.parse(text) as EventEnvelope;
      if (storage === 'own') {
        await db.query('INSERT INTO event_outbox (id, entity_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)', [
          event.id,
          event.entity_id,
          event.type,
          text,
          event.created_at,
        ]);
      }
      recorded.push(payload);
      return payload;
    },
  };
}

/** Stores events recorded with storage 'enclosing' in the outbox, in the order given, with one statement. */
export async function storeEvents(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  if (!events.length) return;
  await db.query(
    `INSERT INTO event_outbox (id, entity_id, type, payload, created_at)
     SELECT v.id, v.entity_id, v.type, v.payload::jsonb, v.created_at FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[])
       AS v(id, entity_id, type, payload, created_at)`,
    [
      events.map((event) => event.id),
      events.map((event) => event.entity_id),
      events.map((event) => event.type),
      // The recorded payload is the parse of its own JSON text: stringified again, it is that text.
      events.map((event) => JSON.stringify(event)),
      events.map((event) => event.created_at),
    ],
  );
}

/** previous_attributes of an update event: the old values of the fields that changed. */
export function previousAttributes<T extends object>(before: T, after: T): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}
