/**
 * The cutover snapshot (E30): 202 at once, then the state machine (the repository's definition,
 * run in process by aws-local-stepfunctions) takes it to available or failed and records the event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localSnapshotRunner, type LocalSnapshotRunner } from '../../local/snapshot-workflow';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { configureSnapshotRunner } from '../../shared/migration/snapshot-workflow';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
let runner: LocalSnapshotRunner;

const base = (entity: TestEntity) => `/v1/entities/${entity.entity.id}/migration/cutover` as const;

async function frozen(entity: TestEntity): Promise<string> {
  const freeze = await api.post(entity, `/v1/entities/${entity.entity.id}/migration/cutover/freeze`, {}, 200);
  return freeze.freeze_token!;
}

async function until(entity: TestEntity, snapshotId: string, status: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const snapshot = await api.get(entity, `/v1/entities/${entity.entity.id}/migration/cutover/snapshots/${snapshotId}`);
    if (snapshot.status === status || Date.now() > deadline) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(() => {
  runner = localSnapshotRunner({ pollMs: 20 });
  configureSnapshotRunner(runner);
});
afterAll(() => configureSnapshotRunner(undefined));

describe('POST /v1/entities/{entity_id}/migration/cutover/snapshot', () => {
  it('answers 202 at once with status creating, then the stub branch reaches available and records migration.snapshot_taken', async () => {
    const owner = await api.newEntity();
    const token = await frozen(owner);
    const response = await api.request('POST', `${base(owner)}/snapshot`, { key: owner.secret, body: { freeze_token: token, description: 'go-live' } });
    expect(response.status, response.text).toBe(202);
    const started = response.body;
    expect(started).toMatchObject({
      object: 'db_snapshot',
      livemode: false,
      entity_id: owner.entity.id,
      snapshot_id: expect.stringMatching(/^cutover-[a-z0-9]+-[a-z0-9]+-[0-9a-f]{6}$/),
      db_instance_id: 'local-dev',
      status: 'creating',
      percent_progress: 0,
      env: 'dev',
      dev_stub: true,
      description: 'go-live',
      cutover_log_id: expect.any(String),
    });
    expect(Date.parse(started.estimated_completion_at)).toBeGreaterThan(Date.parse(started.started_at));

    const done = await until(owner, started.snapshot_id, 'available');
    expect(done).toMatchObject({ status: 'available', percent_progress: 100, completed_at: expect.any(String), failure_reason: null });
    const events = await api.get(owner, `/v1/entities/${owner.entity.id}/events`, { type: 'migration.snapshot_taken' });
    expect(events.data).toHaveLength(1);
    expect(events.data[0].data.object).toMatchObject({ snapshot_id: started.snapshot_id, status: 'available', livemode: false });
    expect(api.published.some((event) => event.type === 'migration.snapshot_taken' && event.data.object.snapshot_id === started.snapshot_id)).toBe(true);

    const list = await api.get(owner, `${base(owner)}/snapshots`);
    expect(list.data.map((snapshot) => snapshot.snapshot_id)).toEqual([started.snapshot_id]);
    const log = await api.get(owner, `${base(owner)}/log`);
    expect(log.data.map((entry) => entry.action)).toEqual(['snapshot', 'freeze']);
    expect(log.data[0].id).toBe(started.cutover_log_id);
  });

  it('refuses a freeze token that is not the current one with 409 freeze_token_mismatch, writing nothing', async () => {
    const owner = await api.newEntity();
    const first = await frozen(owner);
    await api.post(owner, `${base(owner)}/unfreeze`, undefined, 200);
    await frozen(owner);
    await api.expectRefusal(
      owner,
      'POST',
      `${base(owner)}/snapshot`,
      { freeze_token: first, description: 'stale token' },
      409,
      'freeze_token_mismatch',
      'freeze_token',
    );
  });

  it('refuses a snapshot while the entity is not frozen with 409 entity_not_frozen, writing nothing', async () => {
    const owner = await api.newEntity();
    await api.expectRefusal(
      owner,
      'POST',
      `${base(owner)}/snapshot`,
      { freeze_token: '0190f7d2-7b5c-7cc0-8000-000000000001', description: 'no freeze' },
      409,
      'entity_not_frozen',
    );
  });

  it('needs both migration:admin and migration:write: a key with one of them is 403 naming the missing one', async () => {
    const owner = await api.newEntity();
    const token = await frozen(owner);
    for (const [held, missing] of [
      ['migration:admin', 'migration:write'],
      ['migration:write', 'migration:admin'],
    ]) {
      const key = await api.post(owner, `/v1/entities/${owner.entity.id}/api-keys`, { scopes: [held] });
      const refused = await api.expectRefusal(
        owner,
        'POST',
        `${base(owner)}/snapshot`,
        { freeze_token: token, description: 'one scope' },
        403,
        'insufficient_scope',
        undefined,
        key.secret,
      );
      expect(refused.required).toBe(missing);
    }
  });

  it('outside dev a live key takes the real branch: createDBClusterSnapshot, then the describe loop records percent_progress until available', async () => {
    const calls: unknown[] = [];
    const progress = [35, 80, 100];
    const seen: number[] = [];
    const real = localSnapshotRunner({
      pollMs: 20,
      rds: {
        createSnapshot: (input) => (calls.push(input), Promise.resolve({ DbClusterSnapshot: {} })),
        describeSnapshots: () => {
          const percent = progress.shift() ?? 100;
          return Promise.resolve({ DbClusterSnapshots: [{ Status: percent === 100 ? 'available' : 'creating', PercentProgress: percent }] });
        },
      },
    });
    configureSnapshotRunner(real);
    process.env.CUTOVER_ENV = 'prod';
    process.env.DB_CLUSTER_IDENTIFIER = 'bizops-prod-cluster';
    try {
      const { live } = await api.newEntityPair();
      const token = await frozen(live);
      const started = await api.post(live, `${base(live)}/snapshot`, { freeze_token: token, description: 'real branch' }, 202);
      expect(started).toMatchObject({ env: 'prod', dev_stub: false, db_instance_id: 'bizops-prod-cluster', livemode: true });
      const deadline = Date.now() + 15_000;
      let snapshot = started;
      while (snapshot.status === 'creating' && Date.now() < deadline) {
        if (!seen.includes(snapshot.percent_progress)) seen.push(snapshot.percent_progress);
        await new Promise((resolve) => setTimeout(resolve, 5));
        snapshot = await api.get(live, `${base(live)}/snapshots/${started.snapshot_id}`);
      }
      expect(snapshot.status).toBe('available');
      expect(calls).toEqual([
        {
          DbClusterIdentifier: 'bizops-prod-cluster',
          DbClusterSnapshotIdentifier: started.snapshot_id,
          Tags: [
            { Key: 'bizops:purpose', Value: 'cutover' },
            { Key: 'bizops:entity_id', Value: live.entity.id },
          ],
        },
      ]);
      expect(seen[0]).toBe(0);
      expect(seen.every((value, index) => index === 0 || value > seen[index - 1])).toBe(true);
    } finally {
      delete process.env.CUTOVER_ENV;
      delete process.env.DB_CLUSTER_IDENTIFIER;
      configureSnapshotRunner(runner);
    }
  });

  it('an RDS failure takes the catch path: status failed with the reason, and migration.snapshot_failed', async () => {
    const failing = localSnapshotRunner({
      pollMs: 20,
      rds: {
        createSnapshot: () =>
          Promise.reject(Object.assign(new Error('Cannot create a snapshot while another is in progress'), { name: 'Rds.InvalidDBClusterStateFault' })),
      },
    });
    configureSnapshotRunner(failing);
    process.env.CUTOVER_ENV = 'prod';
    try {
      const { live } = await api.newEntityPair({ scopes: ALL_SCOPES });
      const token = await frozen(live);
      const started = await api.post(live, `${base(live)}/snapshot`, { freeze_token: token, description: 'will fail' }, 202);
      const failed = await until(live, started.snapshot_id, 'failed');
      expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('another is in progress') });
      const events = await api.get(live, `/v1/entities/${live.entity.id}/events`, { type: 'migration.snapshot_failed' });
      expect(events.data.map((event) => event.data.object.snapshot_id)).toEqual([started.snapshot_id]);
      const outcomes = await failing.settled();
      expect(outcomes[0].status).toBe('rejected');
    } finally {
      delete process.env.CUTOVER_ENV;
      configureSnapshotRunner(runner);
    }
  });

  it('an unknown snapshot_id is 404 snapshot_not_found', async () => {
    const owner = await api.newEntity();
    const response = await api.request('GET', `${base(owner)}/snapshots/cutover-nothing-here`, { key: owner.secret });
    expect(response.status).toBe(404);
    expect(response.error).toMatchObject({ code: 'snapshot_not_found', param: 'snapshot_id' });
  });
});
