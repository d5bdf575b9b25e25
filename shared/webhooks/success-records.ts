/**
 * Successful attempts are recorded in groups: while one group's transaction runs, the successes
 * that finish meanwhile wait and go together in the next one (a group commit, per entity since a
 * transaction is scoped to one). Under load this turns a transaction per delivery into a
 * transaction per few dozen, which is what keeps a dispatcher's slots turning over; when
 * deliveries are few, each is written at once. A failed attempt, which may retry, disable the
 * endpoint or record an event, is written on its own (delivery.ts).
 */
import { withTransaction } from '../db/database';
import { newId } from '../ids';

interface SuccessRecord {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  statusCode: number;
  durationMs: number;
  excerpt: string | null;
}

/** At most this many successes in one transaction. */
const GROUP_SIZE = 500;

interface Waiting {
  record: SuccessRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const waiting = new Map<string, Waiting[]>();
const writing = new Set<string>();

/** Records a successful attempt (the delivery succeeded); resolves once it is committed. */
export function recordSuccess(entityId: string, record: SuccessRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue = waiting.get(entityId);
    if (queue) queue.push({ record, resolve, reject });
    else waiting.set(entityId, [{ record, resolve, reject }]);
    if (!writing.has(entityId)) void writeGroups(entityId);
  });
}

async function writeGroups(entityId: string): Promise<void> {
  writing.add(entityId);
  try {
    for (;;) {
      const queue = waiting.get(entityId);
      if (!queue) return;
      const group = queue.splice(0, GROUP_SIZE);
      if (queue.length === 0) waiting.delete(entityId);
      try {
        await writeGroup(
          entityId,
          group.map((item) => item.record),
        );
        for (const item of group) item.resolve();
      } catch (error) {
        for (const item of group) item.reject(error);
      }
    }
  } finally {
    writing.delete(entityId);
  }
}

function writeGroup(entityId: string, records: SuccessRecord[]): Promise<void> {
  const column = <K extends keyof SuccessRecord>(key: K) => records.map((record) => record[key]);
  return withTransaction({ role: 'app_user', entityId }, async (db) => {
    await db.query(
      `UPDATE webhook_deliveries d SET status = 'succeeded', attempt_count = r.attempt_number, next_attempt_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS r (id, attempt_number) WHERE d.id = r.id`,
      [column('deliveryId'), column('attemptNumber')],
    );
    await db.query(
      `INSERT INTO webhook_delivery_attempts (id, entity_id, delivery_id, endpoint_id, event_id, event_type, attempt_number, succeeded, status_code, duration_ms, response_excerpt)
       SELECT r.id, $1, r.delivery_id, r.endpoint_id, r.event_id, r.event_type, r.attempt_number, true, r.status_code, r.duration_ms, r.excerpt
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::int[], $8::int[], $9::int[], $10::text[])
           AS r (id, delivery_id, endpoint_id, event_id, event_type, attempt_number, status_code, duration_ms, excerpt)`,
      [
        entityId,
        records.map(() => newId()),
        column('deliveryId'),
        column('endpointId'),
        column('eventId'),
        column('eventType'),
        column('attemptNumber'),
        column('statusCode'),
        column('durationMs'),
        column('excerpt'),
      ],
    );
  });
}
