/**
 * The local server's retention sweep: the runtime `npm start` uses deletes events past
 * EVENT_RETENTION_DAYS on a timer, as the outbox sweeper does on AWS, and keeps the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { startRetentionSweeper } from '../../local/retention-sweep';
import { withTransaction } from '../../shared/db/database';
import { newId } from '../../shared/ids';
import { provisionEntity } from '../../shared/tenants/provision-entity';
import { createFileDatabase } from '../support/harness';

const DAY_MS = 24 * 60 * 60 * 1000;
let runtime: LocalRuntime;
let drop: () => Promise<void>;
let entityId: string;
const saved = process.env.EVENT_RETENTION_SWEEP_MS;

beforeAll(async () => {
  const database = await createFileDatabase();
  drop = database.drop;
  process.env.EVENT_RETENTION_SWEEP_MS = '100';
  runtime = await startLocalRuntime({ databaseUrl: database.url });
  entityId = (await provisionEntity({ code: `ret${newId().slice(0, 8)}`, name: 'Retention', mode: 'test', scopes: [] })).entity.id;
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await drop?.();
  if (saved === undefined) delete process.env.EVENT_RETENTION_SWEEP_MS;
  else process.env.EVENT_RETENTION_SWEEP_MS = saved;
});

/** An event recorded `ageDays` ago, as the outbox stores it. */
async function insertEvent(ageDays: number): Promise<string> {
  const id = newId();
  const createdAt = new Date(Date.now() - ageDays * DAY_MS).toISOString();
  const payload = { id, object: 'event', type: 'location.created', payload_version: 1, created_at: createdAt, entity_id: entityId, data: { object: {} } };
  await withTransaction({ role: 'app_user', entityId }, (db) =>
    db.query('INSERT INTO event_outbox (id, entity_id, type, payload, created_at, published_at) VALUES ($1, $2, $3, $4, $5, $5)', [
      id,
      entityId,
      'location.created',
      JSON.stringify(payload),
      createdAt,
    ]),
  );
  return id;
}

const storedIds = () =>
  withTransaction({ role: 'app_user', entityId }, async (db) => (await db.query<{ id: string }>('SELECT id FROM event_outbox')).map((row) => row.id));

describe('the local retention sweep', () => {
  it('runs on a timer in the local runtime: expired events go, the rest stay', async () => {
    const expired = await insertEvent(91);
    const kept = await insertEvent(89);
    const deadline = Date.now() + 10_000;
    while ((await storedIds()).includes(expired) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const left = await storedIds();
    expect(left).not.toContain(expired);
    expect(left).toContain(kept);
  });

  it('sweeps on demand, every expired event in one go', async () => {
    const sweeper = startRetentionSweeper({ intervalMs: 3_600_000, retentionDays: 120 });
    try {
      await sweeper.sweep();
      const beyond = await Promise.all([121, 125, 130].map((age) => insertEvent(age)));
      // The runtime's own 90-day sweep runs meanwhile: the kept event is younger than both.
      const within = await insertEvent(80);
      await sweeper.sweep();
      const left = await storedIds();
      for (const id of beyond) expect(left).not.toContain(id);
      expect(left).toContain(within);
    } finally {
      await sweeper.stop();
    }
  });

  it('refuses a bad interval at start-up', () => {
    process.env.EVENT_RETENTION_SWEEP_MS = 'soon';
    try {
      expect(() => startRetentionSweeper()).toThrow(/EVENT_RETENTION_SWEEP_MS/);
    } finally {
      process.env.EVENT_RETENTION_SWEEP_MS = '100';
    }
  });
});
