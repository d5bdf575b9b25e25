import { describe, expect, it } from 'vitest';
import { parseApiKey } from '../../shared/auth/api-key-format';
import { resolveCaller, type KeyRow } from '../../shared/auth/authenticate';

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const LIVE_ENTITY = '11111111-1111-4111-8111-111111111111';
const TEST_TWIN = '22222222-2222-4222-8222-222222222222';

/** The stored row of a key: a test key lives on the account's test twin, a live key on the live entity. */
function row(mode: 'live' | 'test', overrides: Partial<KeyRow> = {}): KeyRow {
  return {
    id: mode === 'live' ? 'key-live' : 'key-test',
    entity_id: mode === 'live' ? LIVE_ENTITY : TEST_TWIN,
    entity_code: 'acme',
    entity_livemode: mode === 'live',
    created_by_user_id: 'owner',
    mode,
    scopes: ['orders:read'],
    expired: false,
    revoked: false,
    user_active: true,
    ...overrides,
  };
}

const key = (mode: 'live' | 'test', code = 'acme') => parseApiKey(`bo_${mode}_ent_${code}_${SECRET}`)!;

describe('resolveCaller: from a key to the entity it acts in', () => {
  it('a live key acts in the live entity and a test key in its test twin, with the same code', () => {
    const live = resolveCaller(key('live'), row('live'));
    const test = resolveCaller(key('test'), row('test'));
    expect(live).toEqual({
      ok: true,
      caller: { entityId: LIVE_ENTITY, entityCode: 'acme', keyId: 'key-live', userId: 'owner', mode: 'live', scopes: ['orders:read'] },
    });
    expect(test).toEqual({
      ok: true,
      caller: { entityId: TEST_TWIN, entityCode: 'acme', keyId: 'key-test', userId: 'owner', mode: 'test', scopes: ['orders:read'] },
    });
  });

  it('refuses a key stored on the entity of the other mode (a test key can never reach live data)', () => {
    expect(resolveCaller(key('test'), row('test', { entity_id: LIVE_ENTITY, entity_livemode: true }))).toEqual({ ok: false, code: 'api_key_invalid' });
    expect(resolveCaller(key('live'), row('live', { entity_id: TEST_TWIN, entity_livemode: false }))).toEqual({ ok: false, code: 'api_key_invalid' });
  });

  it('refuses a key string whose mode or code differs from the stored key, and an unknown key', () => {
    expect(resolveCaller(key('live'), row('test'))).toEqual({ ok: false, code: 'api_key_invalid' });
    expect(resolveCaller(key('test', 'other'), row('test'))).toEqual({ ok: false, code: 'api_key_invalid' });
    expect(resolveCaller(key('test'), undefined)).toEqual({ ok: false, code: 'api_key_invalid' });
  });

  it('reports a revoked key, a deactivated user and an expired key precisely', () => {
    expect(resolveCaller(key('test'), row('test', { revoked: true }))).toEqual({ ok: false, code: 'api_key_revoked' });
    expect(resolveCaller(key('test'), row('test', { user_active: false }))).toEqual({ ok: false, code: 'api_key_revoked' });
    expect(resolveCaller(key('live'), row('live', { expired: true }))).toEqual({ ok: false, code: 'api_key_expired' });
  });
});
