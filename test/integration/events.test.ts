import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../events/catalog';
import type { EventType } from '../../events/types';
import { withTransaction } from '../../shared/db/database';
import { newId } from '../../shared/ids';
import { eventRetentionDays, pruneEvents } from '../../shared/webhooks/event-store';
import { setupTestApi, type TestEntity } from '../support/harness';
import { seedOrder } from '../support/order-fixtures';
import { PUBLIC_WEBHOOK_URL } from '../support/webhook-fixtures';

const api = setupTestApi();
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const eventsPath = (entityId: string) => `/v1/entities/${entityId}/events` as const;

interface FeedEvent {
  id: string;
  type: string;
  payload_version: number;
  created_at: string;
  livemode: boolean;
  data: { object: { id?: string } };
}

/** Every event of the owner's entity as stored, newest first: the order the feed promises. */
async function storedEvents(owner: TestEntity): Promise<{ id: string; type: string; created_at: string; object_id: string | null }[]> {
  const rows = await owner.sql((db) =>
    db.query<{ id: string; type: string; created_at: Date | string; object_id: string | null }>(
      `SELECT id, type, created_at, payload -> 'data' -> 'object' ->> 'id' AS object_id FROM event_outbox ORDER BY created_at DESC, id DESC`,
    ),
  );
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}

async function page(owner: TestEntity, query: Record<string, string | string[]>) {
  const response = await api.raw('GET', eventsPath(owner.entity.id), { key: owner.secret, query });
  expect(response.status, response.text).toBe(200);
  return response.body as { data: FeedEvent[]; has_more: boolean; next_cursor: string | null };
}

/**
 * Walks the whole feed by cursor: older pages with starting_after (ids newest first), or from an
 * old event up with ending_before (ids oldest first, as a catching-up consumer reads them).
 */
async function walk(owner: TestEntity, filters: Record<string, string | string[]>, direction: 'older' | 'newer', limit = 3, from?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = from;
  for (let pages = 0; pages < 200; pages++) {
    const query = { ...filters, limit: String(limit), ...(cursor && { [direction === 'older' ? 'starting_after' : 'ending_before']: cursor }) };
    const body = await page(owner, query);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...(direction === 'older' ? body.data : [...body.data].reverse()).map((event) => event.id));
    if (!body.has_more) return ids;
    expect(body.data).toHaveLength(limit);
    cursor = body.next_cursor!;
  }
  throw new Error('the feed did not end');
}

/** A scripted sequence: two locations (one updated twice, one deleted), a manufacturer, a product. */
async function script(owner: TestEntity) {
  const first = await api.post(owner, '/v1/locations', { name: 'Main' });
  const second = await api.post(owner, '/v1/locations', { name: 'Overflow' });
  await api.request('PATCH', `/v1/locations/${first.id}`, { key: owner.secret, body: { city: 'Leeds' } });
  await api.request('PATCH', `/v1/locations/${first.id}`, { key: owner.secret, body: { city: 'York' } });
  await api.post(owner, '/v1/manufacturers', { name: 'Acme' });
  await api.post(owner, '/v1/products', { sku: 'FEED-1', name: 'Feed product' });
  await api.request('DELETE', `/v1/locations/${second.id}`, { key: owner.secret });
  return { first: first.id, second: second.id };
}

describe('the events feed', () => {
  it('returns every event exactly once when walked by cursor, in both directions and with each filter', async () => {
    const owner = await api.newEntity();
    const { first, second } = await script(owner);
    const stored = await storedEvents(owner);
    const scripted = stored.filter((event) => [first, second].includes(event.object_id ?? ''));
    expect(scripted.map((event) => event.type).sort()).toEqual(
      ['location.created', 'location.created', 'location.updated', 'location.updated', 'location.deleted'].sort(),
    );
    expect(stored.length).toBeGreaterThanOrEqual(7);

    const all = stored.map((event) => event.id);
    expect(await walk(owner, {}, 'older')).toEqual(all);
    expect(await walk(owner, {}, 'older', 100)).toEqual(all);
    // From the oldest event upwards: every newer event once, then the oldest itself is the cursor.
    const oldest = all[all.length - 1];
    expect(await walk(owner, {}, 'newer', 2, oldest)).toEqual(all.slice(0, -1).reverse());

    const cases: [Record<string, string | string[]>, (event: (typeof stored)[number]) => boolean][] = [
      [{ type: 'location.updated' }, (event) => event.type === 'location.updated'],
      [{ 'types[]': ['location.created', 'manufacturer.created'] }, (event) => ['location.created', 'manufacturer.created'].includes(event.type)],
      [{ object_id: first }, (event) => event.object_id === first],
      [{ 'created[gte]': stored[2].created_at }, (event) => event.created_at >= stored[2].created_at],
      [{ 'created[lte]': stored[3].created_at }, (event) => event.created_at <= stored[3].created_at],
      [
        { 'created[gte]': stored[4].created_at, 'created[lte]': stored[1].created_at, 'types[]': ['location.updated', 'location.deleted', 'product.created'] },
        (event) =>
          event.created_at >= stored[4].created_at &&
          event.created_at <= stored[1].created_at &&
          ['location.updated', 'location.deleted', 'product.created'].includes(event.type),
      ],
    ];
    for (const [filters, keep] of cases) {
      const expected = stored.filter(keep).map((event) => event.id);
      expect(expected.length, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(await walk(owner, filters, 'older', 2), JSON.stringify(filters)).toEqual(expected);
      if (expected.length > 1) {
        expect(await walk(owner, filters, 'newer', 1, expected[expected.length - 1]), JSON.stringify(filters)).toEqual(expected.slice(0, -1).reverse());
      }
    }
    expect((await page(owner, { object_id: first, type: 'location.updated' })).data.map((event) => event.data.object.id)).toEqual([first, first]);
  });

  it('serves one event by id, the same object the feed and the bus carry', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Single' });
    const published = api.published.find((event) => event.type === 'location.created' && event.data.object.id === location.id)!;
    const fetched = await api.raw('GET', `${eventsPath(owner.entity.id)}/${published.id}`, { key: owner.secret });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(published);
    expect(fetched.body).toMatchObject({ object: 'event', livemode: false, type: 'location.created', data: { object: { id: location.id, name: 'Single' } } });
  });

  it('stamps every event with its payload version from the catalog: order events at 2, the rest at 1', async () => {
    const owner = await api.newEntity();
    const order = await seedOrder(api, owner);
    const { data } = await page(owner, { limit: '100' });
    const versions = Object.fromEntries(data.map((event) => [event.type, event.payload_version]));
    expect(versions).toMatchObject({ 'order.created': 2, 'account.created': 1, 'product.created': 1 });
    for (const event of data) expect(event.payload_version, event.type).toBe(EVENT_CATALOG[event.type as EventType].version);
    const created = data.find((event) => event.type === 'order.created')!;
    expect(created.data.object.id).toBe(order.id);
    expect(created.data.object).not.toHaveProperty('lines');
    // The bus carries the same version as the feed.
    expect(api.published.find((event) => event.id === created.id)?.payload_version).toBe(2);
  });

  it('stamps events recorded before payload versions when the migration runs: orders with lines at 1, without at 2, the rest at 1', async () => {
    const owner = await api.newEntity();
    const entityId = owner.entity.id;
    const older = (type: string, object: Record<string, unknown>) => ({ id: newId(), object: 'event', type, entity_id: entityId, data: { object } });
    const withLines = older('order.created', { id: newId(), object: 'order', lines: [] });
    const withoutLines = older('order.updated', { id: newId(), object: 'order' });
    const location = older('location.created', { id: newId(), object: 'location' });
    await owner.sql(async (db) => {
      for (const event of [withLines, withoutLines, location]) {
        await db.query('INSERT INTO event_outbox (id, entity_id, type, payload) VALUES ($1, $2, $3, $4)', [
          event.id,
          entityId,
          event.type,
          JSON.stringify(event),
        ]);
      }
    });
    const migration = readFileSync(join(repoRoot, 'migrations', '20261124130000_event_payload_versions.sql'), 'utf8');
    const client = new pg.Client({ connectionString: api.databaseUrl });
    await client.connect();
    try {
      await client.query(migration.slice(0, migration.indexOf('-- Down Migration')));
    } finally {
      await client.end();
    }
    const versions = await owner.sql((db) =>
      db.query<{ id: string; version: number }>(`SELECT id, (payload ->> 'payload_version')::int AS version FROM event_outbox WHERE id = ANY($1::uuid[])`, [
        [withLines.id, withoutLines.id, location.id],
      ]),
    );
    expect(Object.fromEntries(versions.map((row) => [row.id, row.version]))).toEqual({ [withLines.id]: 1, [withoutLines.id]: 2, [location.id]: 1 });
  });

  it("keeps other entities' and the other mode's events out: 404 by id, absent from the feed", async () => {
    const { live, test } = await api.newEntityPair();
    const stranger = await api.newEntity();
    const liveLocation = await api.post(live, '/v1/locations', { name: 'Live' });
    const testLocation = await api.post(test, '/v1/locations', { name: 'Test' });
    const strangerLocation = await api.post(stranger, '/v1/locations', { name: 'Stranger' });
    const eventOf = (id: string) => api.published.find((event) => event.type === 'location.created' && event.data.object.id === id)!.id;
    const [liveEvent, testEvent, strangerEvent] = [eventOf(liveLocation.id), eventOf(testLocation.id), eventOf(strangerLocation.id)];

    const liveFeed = await walk(live, {}, 'older', 100);
    const testFeed = await walk(test, {}, 'older', 100);
    expect(liveFeed).toContain(liveEvent);
    expect(testFeed).toContain(testEvent);
    for (const foreign of [testEvent, strangerEvent]) expect(liveFeed).not.toContain(foreign);
    for (const foreign of [liveEvent, strangerEvent]) expect(testFeed).not.toContain(foreign);
    expect((await page(live, { limit: '100' })).data.every((event) => event.livemode)).toBe(true);
    expect((await page(test, { limit: '100' })).data.every((event) => !event.livemode)).toBe(true);

    for (const [owner, foreign] of [
      [live, testEvent],
      [live, strangerEvent],
      [test, liveEvent],
      [test, strangerEvent],
    ] as const) {
      const byId = await api.raw('GET', `${eventsPath(owner.entity.id)}/${foreign}`, { key: owner.secret });
      expect(byId.status).toBe(404);
      expect(byId.error).toMatchObject({ code: 'not_found', param: 'id' });
      // Another entity's event id as a cursor is refused as unknown, not used.
      const cursor = await api.raw('GET', eventsPath(owner.entity.id), { key: owner.secret, query: { starting_after: foreign } });
      expect(cursor.error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
    }
    // The other mode's entity id in the path is a 404, for the feed and for one event.
    for (const [owner, other, event] of [
      [live, test, liveEvent],
      [test, live, testEvent],
      [test, stranger, testEvent],
    ] as const) {
      const feed = await api.raw('GET', eventsPath(other.entity.id), { key: owner.secret });
      expect(feed.status).toBe(404);
      expect(feed.error).toMatchObject({ code: 'not_found', param: 'entity_id' });
      expect((await api.raw('GET', `${eventsPath(other.entity.id)}/${event}`, { key: owner.secret })).status).toBe(404);
    }
  });

  it('refuses bad filters with a precise param', async () => {
    const owner = await api.newEntity();
    const refusals: [Record<string, string | string[]>, string][] = [
      [{ type: 'order.exploded' }, 'type'],
      [{ type: 'not a type' }, 'type'],
      [{ 'types[]': ['order.created', 'order.nope'] }, 'types[1]'],
      [{ type: 'order.created', 'types[]': ['order.created'] }, 'types'],
      [{ 'created[gte]': 'yesterday' }, 'created[gte]'],
      [{ 'created[gte]': '2026-02-01T00:00:00Z', 'created[lte]': '2026-01-01T00:00:00Z' }, 'created[lte]'],
      [{ object_id: 'abc' }, 'object_id'],
      [{ limit: '101' }, 'limit'],
      [{ starting_after: newId(), ending_before: newId() }, 'ending_before'],
    ];
    for (const [query, param] of refusals) {
      const response = await api.raw('GET', eventsPath(owner.entity.id), { key: owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error.param, JSON.stringify(query)).toBe(param);
    }
  });

  it('requires webhooks:read', async () => {
    const owner = await api.newEntity({ scopes: ['orders:write'] });
    const response = await api.raw('GET', eventsPath(owner.entity.id), { key: owner.secret });
    expect(response.status).toBe(403);
    expect(response.error).toMatchObject({ code: 'insufficient_scope', required: 'webhooks:read' });
    const reader = await api.newEntity({ scopes: ['webhooks:read'] });
    expect((await api.raw('GET', eventsPath(reader.entity.id), { key: reader.secret })).status).toBe(200);
  });
});

describe('event retention', () => {
  it('keeps 90 days by default, configurable upwards only', () => {
    expect(eventRetentionDays({})).toBe(90);
    expect(eventRetentionDays({ EVENT_RETENTION_DAYS: '365' })).toBe(365);
    expect(() => eventRetentionDays({ EVENT_RETENTION_DAYS: '30' })).toThrow(/at least 90/);
    expect(() => eventRetentionDays({ EVENT_RETENTION_DAYS: 'forever' })).toThrow(/EVENT_RETENTION_DAYS/);
  });

  it('deletes events and finished deliveries past the retention period and keeps the rest', async () => {
    const owner = await api.newEntity();
    const day = 24 * 60 * 60 * 1000;
    const ids = { expired: newId(), kept: newId() };
    for (const [name, age] of [
      ['expired', 91],
      ['kept', 89],
    ] as const) {
      const createdAt = new Date(Date.now() - age * day).toISOString();
      const payload = { id: ids[name], object: 'event', type: 'location.created', created_at: createdAt, entity_id: owner.entity.id, data: { object: {} } };
      await owner.sql((db) =>
        db.query('INSERT INTO event_outbox (id, entity_id, type, payload, created_at, published_at) VALUES ($1, $2, $3, $4, $5, $5)', [
          ids[name],
          owner.entity.id,
          'location.created',
          JSON.stringify(payload),
          createdAt,
        ]),
      );
    }
    const endpoint = await api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints`, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] });
    const deliveries = { old: newId(), oldPending: newId(), recent: newId() };
    for (const [name, age, status] of [
      ['old', 91, 'succeeded'],
      ['oldPending', 91, 'pending'],
      ['recent', 89, 'failed'],
    ] as const) {
      const createdAt = new Date(Date.now() - age * day).toISOString();
      await owner.sql(async (db) => {
        await db.query(
          `INSERT INTO webhook_deliveries (id, entity_id, endpoint_id, event_id, event_type, kind, status, next_attempt_at, created_at)
           VALUES ($1, $2, $3, $4, 'location.created', 'resend', $5, $6, $7)`,
          [deliveries[name], owner.entity.id, endpoint.id, ids.expired, status, status === 'pending' ? createdAt : null, createdAt],
        );
        await db.query(
          `INSERT INTO webhook_delivery_attempts (id, entity_id, delivery_id, endpoint_id, event_id, event_type, attempt_number, succeeded, duration_ms, created_at)
           VALUES ($1, $2, $3, $4, $5, 'location.created', 1, true, 5, $6)`,
          [newId(), owner.entity.id, deliveries[name], endpoint.id, ids.expired, createdAt],
        );
      });
    }
    const pruned = await withTransaction({ role: 'app_worker' }, (db) => pruneEvents(db, 90));
    expect(pruned).toBeGreaterThanOrEqual(1);
    const left = (await storedEvents(owner)).map((event) => event.id);
    expect(left).toContain(ids.kept);
    expect(left).not.toContain(ids.expired);
    expect((await api.raw('GET', `${eventsPath(owner.entity.id)}/${ids.expired}`, { key: owner.secret })).status).toBe(404);
    const remaining = await owner.sql((db) =>
      db.query<{ id: string; attempts: number }>(
        `SELECT d.id, (SELECT count(*)::int FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS attempts FROM webhook_deliveries d ORDER BY d.created_at`,
      ),
    );
    expect(remaining).toEqual(
      expect.arrayContaining([
        { id: deliveries.oldPending, attempts: 1 },
        { id: deliveries.recent, attempts: 1 },
      ]),
    );
    expect(remaining.map((row) => row.id)).not.toContain(deliveries.old);
    const orphanAttempts = await owner.sql((db) => db.query('SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id = $1', [deliveries.old]));
    expect(orphanAttempts).toHaveLength(0);
  });
});
