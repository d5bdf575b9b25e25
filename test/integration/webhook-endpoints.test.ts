import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { PUBLIC_WEBHOOK_URL } from '../support/webhook-fixtures';

const api = setupTestApi();
const endpointsPath = (entityId: string) => `/v1/entities/${entityId}/webhook-endpoints` as const;

async function create(owner: TestEntity, body: Record<string, unknown>) {
  return api.raw('POST', endpointsPath(owner.entity.id), { key: owner.secret, body });
}

async function storedSecrets(owner: TestEntity, id: string) {
  return owner.sql((db) =>
    db.one<{ secret: string; previous_secret: string | null; previous_secret_expires_at: Date | null }>(
      'SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1',
      [id],
    ),
  );
}

describe('webhook endpoints', () => {
  it('creates an endpoint whose secret is shown once, then lists, reads, updates and deletes it', async () => {
    const owner = await api.newEntity();
    const created = await create(owner, {
      url: 'https://93.184.216.34/Hooks?source=erp',
      enabled_events: ['order.created', 'inventory.low_stock', 'order.created'],
      description: 'Warehouse sync',
      metadata: { team: 'ops' },
    });
    expect(created.status, created.text).toBe(201);
    const endpoint = created.body as Record<string, unknown> & { id: string; secret: string };
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      livemode: false,
      entity_id: owner.entity.id,
      url: 'https://93.184.216.34/Hooks?source=erp',
      enabled_events: ['order.created', 'inventory.low_stock'],
      description: 'Warehouse sync',
      status: 'enabled',
      disabled_reason: null,
      previous_secret_expires_at: null,
      metadata: { team: 'ops' },
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await storedSecrets(owner, endpoint.id)).secret).toBe(endpoint.secret);

    const fetched = await api.raw('GET', `${endpointsPath(owner.entity.id)}/${endpoint.id}`, { key: owner.secret });
    expect(fetched.status).toBe(200);
    expect(fetched.body).not.toHaveProperty('secret');
    expect(fetched.text).not.toContain(endpoint.secret.slice(6));
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(fetched.body).toEqual(withoutSecret);

    const second = (await create(owner, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string };
    const list = await api.raw('GET', endpointsPath(owner.entity.id), { key: owner.secret, query: { limit: '1' } });
    expect(list.body).toMatchObject({ object: 'list', has_more: true, data: [{ id: second.id, enabled_events: ['*'] }] });
    expect(list.text).not.toContain('whsec_');
    const older = await api.raw('GET', endpointsPath(owner.entity.id), { key: owner.secret, query: { starting_after: second.id } });
    expect((older.body as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([endpoint.id]);

    const updated = await api.raw('PATCH', `${endpointsPath(owner.entity.id)}/${endpoint.id}`, {
      key: owner.secret,
      body: { enabled_events: ['*'], description: null, url: 'https://93.184.216.35/v2' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ enabled_events: ['*'], description: null, url: 'https://93.184.216.35/v2', metadata: { team: 'ops' } });

    const deleted = await api.raw('DELETE', `${endpointsPath(owner.entity.id)}/${endpoint.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', livemode: false, deleted: true });
    expect((await api.raw('GET', `${endpointsPath(owner.entity.id)}/${endpoint.id}`, { key: owner.secret })).status).toBe(404);
  });

  it('disables and enables, each idempotent', async () => {
    const owner = await api.newEntity();
    const { id } = (await create(owner, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string };
    const path = `${endpointsPath(owner.entity.id)}/${id}`;
    for (let i = 0; i < 2; i++) {
      const disabled = await api.raw('POST', `${path}/disable`, { key: owner.secret });
      expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'user' });
    }
    for (let i = 0; i < 2; i++) {
      const enabled = await api.raw('POST', `${path}/enable`, { key: owner.secret });
      expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    }
  });

  it('rolls the secret, keeping the old one valid for 24 hours', async () => {
    const owner = await api.newEntity();
    const created = (await create(owner, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string; secret: string };
    const before = Date.now();
    const rolled = await api.raw('POST', `${endpointsPath(owner.entity.id)}/${created.id}/roll-secret`, { key: owner.secret });
    expect(rolled.status, rolled.text).toBe(200);
    const body = rolled.body as { secret: string; previous_secret_expires_at: string };
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(created.secret);
    const expires = Date.parse(body.previous_secret_expires_at);
    expect(expires - before).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - before).toBeLessThan(24 * 3600_000 + 60_000);
    const stored = await storedSecrets(owner, created.id);
    expect(stored).toMatchObject({ secret: body.secret, previous_secret: created.secret });
    const fetched = await api.raw('GET', `${endpointsPath(owner.entity.id)}/${created.id}`, { key: owner.secret });
    expect(fetched.body).toMatchObject({ previous_secret_expires_at: body.previous_secret_expires_at });
    expect(fetched.body).not.toHaveProperty('secret');
  });

  it('refuses unknown event types and bad input with a precise param, writing nothing', async () => {
    const owner = await api.newEntity();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: PUBLIC_WEBHOOK_URL, enabled_events: ['order.created', 'order.exploded'] }, 'parameter_invalid', 'enabled_events[1]'],
      [{ url: PUBLIC_WEBHOOK_URL, enabled_events: ['*', 'order.created'] }, 'parameter_invalid', 'enabled_events'],
      [{ url: PUBLIC_WEBHOOK_URL, enabled_events: [] }, 'parameter_invalid', 'enabled_events'],
      [{ url: PUBLIC_WEBHOOK_URL }, 'parameter_missing', 'enabled_events'],
      [{ enabled_events: ['*'] }, 'parameter_missing', 'url'],
      [{ url: 'http://93.184.216.34/hooks', enabled_events: ['*'] }, 'webhook_url_insecure', 'url'],
      [{ url: 'https://127.0.0.1/hooks', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://localhost/hooks', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://[::ffff:169.254.169.254]/', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://10.0.0.1/', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://100.64.0.1/', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://[fe80::1]/', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'https://0.0.0.0/', enabled_events: ['*'] }, 'webhook_url_forbidden_address', 'url'],
      [{ url: 'ftp://93.184.216.34/', enabled_events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'], secret: 'whsec_mine' }, 'parameter_unknown', 'secret'],
    ];
    for (const [body, code, param] of cases) {
      await api.expectRefusal(owner, 'POST', `/v1/entities/${owner.entity.id}/webhook-endpoints`, body as never, 400, code, param);
    }
    const { id } = (await create(owner, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string };
    const before = await tenantRowCounts(owner.entity.id);
    const badUpdate = await api.raw('PATCH', `${endpointsPath(owner.entity.id)}/${id}`, { key: owner.secret, body: { url: 'https://192.168.0.10/' } });
    expect(badUpdate.error).toMatchObject({ code: 'webhook_url_forbidden_address', param: 'url' });
    const badTypes = await api.raw('PATCH', `${endpointsPath(owner.entity.id)}/${id}`, { key: owner.secret, body: { enabled_events: ['nope.nope'] } });
    expect(badTypes.error).toMatchObject({ code: 'parameter_invalid', param: 'enabled_events[0]' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    expect((await api.raw('GET', `${endpointsPath(owner.entity.id)}/${id}`, { key: owner.secret })).body).toMatchObject({ url: PUBLIC_WEBHOOK_URL });
  });

  describe('with a local allowlist', () => {
    const saved = process.env.WEBHOOK_URL_ALLOWLIST;
    beforeEach(() => {
      process.env.WEBHOOK_URL_ALLOWLIST = 'localhost';
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.WEBHOOK_URL_ALLOWLIST;
      else process.env.WEBHOOK_URL_ALLOWLIST = saved;
    });

    it('accepts http://localhost off prod, and nothing else that is local', async () => {
      const owner = await api.newEntity();
      const local = await create(owner, { url: 'http://localhost:4567/hooks', enabled_events: ['*'] });
      expect(local.status, local.text).toBe(201);
      expect((await create(owner, { url: 'http://127.0.0.1:4567/hooks', enabled_events: ['*'] })).error).toMatchObject({ code: 'webhook_url_insecure' });
      expect((await create(owner, { url: 'https://10.0.0.1/', enabled_events: ['*'] })).error).toMatchObject({ code: 'webhook_url_forbidden_address' });
    });
  });

  it("keeps the modes apart: a test key's endpoints are not the live key's", async () => {
    const { live, test } = await api.newEntityPair();
    const testEndpoint = (await create(test, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string };
    const liveEndpoint = (await create(live, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] })).body as { id: string; livemode: boolean };
    expect(liveEndpoint.livemode).toBe(true);
    const liveList = await api.raw('GET', endpointsPath(live.entity.id), { key: live.secret });
    expect((liveList.body as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([liveEndpoint.id]);
    expect((await api.raw('GET', `${endpointsPath(live.entity.id)}/${testEndpoint.id}`, { key: live.secret })).status).toBe(404);
    expect((await api.raw('GET', `${endpointsPath(test.entity.id)}/${testEndpoint.id}`, { key: live.secret })).status).toBe(404);
  });
});
