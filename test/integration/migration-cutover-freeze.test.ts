/**
 * The cutover freeze: while an entity is frozen, writes of keys without migration:admin are
 * refused (409 entity_frozen, nothing written), reads continue, migration:admin keys still write,
 * and unfreeze restores everything. Freeze and unfreeze are in the cutover log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { beginStatement } from '../../shared/db/opening-batch';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
let admin: TestEntity;
let pair: { live: TestEntity; test: TestEntity };
/** A key of the same entity with every scope but migration:admin. */
let writer: string;

const freezePath = (entity: TestEntity) => `/v1/entities/${entity.entity.id}/migration/cutover/freeze` as const;
const unfreezePath = (entity: TestEntity) => `/v1/entities/${entity.entity.id}/migration/cutover/unfreeze` as const;

beforeAll(async () => {
  pair = await api.newEntityPair();
  admin = pair.test;
  const key = await api.post(admin, `/v1/entities/${admin.entity.id}/api-keys`, { scopes: ALL_SCOPES.filter((scope) => scope !== 'migration:admin') });
  writer = key.secret;
});

describe('cutover freeze', () => {
  it('frozen: a POST with a normal key is 409 entity_frozen and writes nothing, a GET works, a migration:admin key still writes; unfreeze restores', async () => {
    const existing = await api.post(writer, '/v1/locations', { name: 'Before the freeze' });
    const frozen = await api.post(admin, freezePath(admin), { description: 'cutover rehearsal' }, 200);
    expect(frozen).toMatchObject({ object: 'cutover_freeze', entity_id: admin.entity.id, frozen: true, freeze_token: expect.any(String), livemode: false });

    const refusal = await api.expectRefusal(admin, 'POST', '/v1/locations', { name: 'During the freeze' }, 409, 'entity_frozen', undefined, writer);
    expect(refusal.type).toBe('conflict');
    await api.expectRefusal(admin, 'PATCH', `/v1/locations/${existing.id}`, { name: 'Renamed while frozen' }, 409, 'entity_frozen', undefined, writer);
    await api.expectRefusal(admin, 'DELETE', `/v1/locations/${existing.id}`, undefined, 409, 'entity_frozen', undefined, writer);

    expect((await api.get(writer, `/v1/locations/${existing.id}`)).name).toBe('Before the freeze');
    const byAdmin = await api.post(admin, '/v1/locations', { name: 'Written by the migration team' });
    expect(byAdmin.name).toBe('Written by the migration team');

    const lifted = await api.post(admin, unfreezePath(admin), undefined, 200);
    expect(lifted).toMatchObject({ frozen: false, freeze_token: null });
    expect((await api.post(writer, '/v1/locations', { name: 'After the freeze' })).name).toBe('After the freeze');
  });

  it('the other mode of the entity is not frozen with it', async () => {
    await api.post(admin, freezePath(admin), {}, 200);
    try {
      expect((await api.post(pair.live, '/v1/locations', { name: 'Live during the test freeze' })).name).toBe('Live during the test freeze');
    } finally {
      await api.post(admin, unfreezePath(admin), undefined, 200);
    }
  });

  it('freezing a frozen entity is 409 entity_already_frozen and unfreezing an unfrozen one 409 entity_not_frozen, both writing nothing', async () => {
    await api.post(admin, freezePath(admin), {}, 200);
    await api.expectRefusal(admin, 'POST', freezePath(admin), {}, 409, 'entity_already_frozen');
    await api.post(admin, unfreezePath(admin), undefined, 200);
    await api.expectRefusal(admin, 'POST', unfreezePath(admin), undefined, 409, 'entity_not_frozen');
  });

  it('freeze and unfreeze need migration:admin (403 naming it); another entity is a 404', async () => {
    const refused = await api.request('POST', freezePath(admin), { key: writer, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'migration:admin' });
    const stranger = await api.newEntity();
    await api.expectRefusal(admin, 'POST', freezePath(stranger), {}, 404, 'not_found', 'entity_id');
  });

  it('records freeze and unfreeze in the cutover log, with the key that acted', async () => {
    const entity = await api.newEntity();
    const frozen = await api.post(entity, freezePath(entity), { description: 'go-live' }, 200);
    const lifted = await api.post(entity, unfreezePath(entity), undefined, 200);
    const log = await api.get(entity, `/v1/entities/${entity.entity.id}/migration/cutover/log`);
    expect(log.data.map((entry) => [entry.id, entry.action, entry.api_key_id, entry.description])).toEqual([
      [lifted.cutover_log_id, 'unfreeze', entity.key.id, null],
      [frozen.cutover_log_id, 'freeze', entity.key.id, 'go-live'],
    ]);
  });

  it('is documented: every write of the OpenAPI document lists 409 entity_frozen, no read does', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, { 'x-error-codes'?: string[] }> }> };
    const doc = (await api.request('GET', '/v1/openapi.json')).body as unknown as { paths: Record<string, Record<string, Operation>> };
    const codes = (path: string, method: string) => doc.paths[path][method].responses['409']?.content?.['application/json']?.['x-error-codes'] ?? [];
    expect(codes('/v1/locations', 'post')).toContain('entity_frozen');
    expect(codes('/v1/locations/{id}', 'delete')).toContain('entity_frozen');
    expect(codes('/v1/locations/{id}', 'get')).not.toContain('entity_frozen');
  });

  it('costs no round trip of its own: the check rides in the batch that opens the transaction, only for writes', () => {
    const write = beginStatement({ role: 'app_user', entityId: admin.entity.id, refuseWhenFrozen: true });
    expect(write).toMatch(
      /^BEGIN; SELECT set_config\(.*\); SELECT EXISTS \(SELECT 1 FROM entity_freezes WHERE entity_id = current_entity_id\(\)\) AS entity_frozen$/,
    );
    expect(beginStatement({ role: 'app_user', entityId: admin.entity.id, readOnly: true })).not.toContain('entity_freezes');
  });
});
