/**
 * Security-matrix fixtures of the import batch routes (spread into route-fixtures.ts), and the
 * factory the batch tests open batches with.
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

/** An open import batch of the owner's entity, through the API. */
export async function openBatch(api: TestApi, owner: TestEntity, externalSource = 'legacy'): Promise<string> {
  return (await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches`, { external_source: externalSource })).id;
}

const seedBatch = async (api: TestApi, owner: TestEntity): Promise<Params> => ({ entity_id: owner.entity.id, id: await openBatch(api, owner) });

export const MIGRATION_BATCH_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/entities/{entity_id}/migration/batches': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id }),
  '/v1/entities/{entity_id}/migration/batches/{id}': seedBatch,
  '/v1/entities/{entity_id}/migration/batches/{id}/complete': seedBatch,
  '/v1/entities/{entity_id}/migration/batches/{id}/rollback': seedBatch,
};

export const MIGRATION_BATCH_SAMPLE_BODIES: Record<string, unknown> = {
  'migration.batches.create': { external_source: 'legacy' },
};
