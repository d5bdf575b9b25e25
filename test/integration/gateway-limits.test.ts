/** Rate limiting and the authorizer cache of the gateway. */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client';
import { setupTestApi } from '../support/harness';

const api = setupTestApi({ rateLimit: { ratePerSecond: 1, burst: 3 }, authorizerCacheTtlMs: 60_000 });

describe('rate limiting', () => {
  it('answers 429 rate_limit with Retry-After and RateLimit headers once the burst is spent, per key', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    const statuses: number[] = [];
    let limited: ApiResponse<unknown> | undefined;
    for (let i = 0; i < 5; i++) {
      const response = await api.request('GET', '/v1/locations', { key: a.secret });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else expect(response.headers.get('ratelimit-limit')).toBe('3');
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(limited?.error).toMatchObject({ error: 'rate_limit', code: 'rate_limit_exceeded', type: 'rate_limit' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get('ratelimit-remaining')).toBe('0');
    expect((await api.request('GET', '/v1/locations', { key: b.secret })).status).toBe(200);
  });
});

describe('authorizer cache', () => {
  it('is keyed by the whole Authorization value: a cached result never serves another key', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    await api.request('POST', '/v1/locations', { key: a.secret, body: { name: 'Only in A' } });
    // Alternate so each key's result is cached while the other is used.
    for (const owner of [a, b, a, b]) {
      const list = await api.request('GET', '/v1/locations', { key: owner.secret, headers: {} });
      expect(list.status).toBe(200);
      for (const location of list.body.data) expect(location.entity_id).toBe(owner.entity.id);
    }
  });
});
