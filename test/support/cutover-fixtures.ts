/**
 * Security-matrix fixtures of the relink and cutover routes (spread into route-fixtures.ts).
 *
 * A seeder leaves its entity as it found it: unfrozen, with no snapshot still running. A frozen
 * entity would turn every later write of the matrix into 409 entity_frozen, and a snapshot still
 * creating would record its event in the middle of another route's "writes nothing" check.
 */
import { localSnapshotRunner } from '../../local/snapshot-workflow';
import { configureSnapshotRunner } from '../../shared/migration/snapshot-workflow';
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

const entityOnly = (_api: TestApi, owner: TestEntity): Promise<Params> => Promise.resolve({ entity_id: owner.entity.id });

let runnerConfigured = false;

/** A finished (available) cutover snapshot of the owner's entity, taken under a freeze that is lifted again. */
async function seedSnapshot(api: TestApi, owner: TestEntity): Promise<Params> {
  if (!runnerConfigured) {
    // The stub branch of the state machine, run in process as the local server does.
    configureSnapshotRunner(localSnapshotRunner({ pollMs: 10 }));
    runnerConfigured = true;
  }
  const base = `/v1/entities/${owner.entity.id}/migration/cutover` as const;
  const { freeze_token } = await api.post(owner, `${base}/freeze`, {}, 200);
  const started = await api.post(owner, `${base}/snapshot`, { freeze_token: freeze_token!, description: 'Security matrix fixture' }, 202);
  const deadline = Date.now() + 15_000;
  let status = started.status;
  while (status === 'creating') {
    if (Date.now() > deadline) throw new Error(`snapshot ${started.snapshot_id} still creating`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await api.get(owner, `${base}/snapshots/${started.snapshot_id}`)).status;
  }
  await api.post(owner, `${base}/unfreeze`, undefined, 200);
  return { entity_id: owner.entity.id, snapshot_id: started.snapshot_id };
}

export const CUTOVER_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/entities/{entity_id}/migration/inventory-transactions/relink-source': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/freeze': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/unfreeze': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/log': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/snapshot': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/snapshots': entityOnly,
  '/v1/entities/{entity_id}/migration/cutover/snapshots/{snapshot_id}': seedSnapshot,
};

export const CUTOVER_SAMPLE_BODIES: Record<string, unknown> = {
  'migration.relink_inventory_transaction_sources': { items: [{ external_id: 'LEGACY-TX-1', source_id: '00000000-0000-4000-8000-000000000001' }] },
  'migration.cutover_freeze': { description: 'Sample freeze' },
  'migration.cutover_snapshot_create': { freeze_token: '00000000-0000-4000-8000-000000000009', description: 'Sample snapshot' },
};
