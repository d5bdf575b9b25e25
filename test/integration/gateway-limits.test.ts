/** Rate limiting and the authorizer cache of the gateway. */
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type ApiResponse } from '../support/client';
import { setupTestApi } from '../support/harness';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as authorize } from '../../functions/authorizer/authorizer';
import { ROUTE_MODULES } from '../../functions/routes';
import { createGateway, type GatewayOptions } from '../../local/gateway';
import { generateApiKey } from '../../shared/auth/api-key-format';

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
    expect(limited?.error).toMatchObject({ error: 'rate_limit_exceeded', code: 'rate_limit_exceeded', type: 'rate_limit' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get('ratelimit-remaining')).toBe('0');
    expect((await api.request('GET', '/v1/locations', { key: b.secret })).status).toBe(200);
  });
});

describe('row 4: rate-limit headers', () => {
  it('are on every answer to a counted request, errors included, as the document declares them', async () => {
    const owner = await api.newEntity();
    const answers = [
      await api.raw('GET', '/v1/locations', { key: owner.secret }),
      await api.raw('GET', '/v1/locations/00000000-0000-0000-0000-000000000000', { key: owner.secret }),
      // Refused by the gateway itself, after counting.
      await api.raw('POST', '/v1/locations', { key: owner.secret, rawBody: 'x'.repeat(2 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } }),
      await api.raw('GET', '/v1/locations', { key: generateApiKey('test', 'bogus') }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 413, 401]);
    for (const answer of answers) {
      expect(answer.headers.get('ratelimit-limit'), String(answer.status)).toBe('3');
      expect(answer.headers.get('ratelimit-remaining'), String(answer.status)).toMatch(/^\d+$/);
      expect(answer.headers.get('ratelimit-reset'), String(answer.status)).toMatch(/^\d+$/);
    }
    const document = (await api.raw('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { $ref: string }> }> }>>;
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        for (const [status, response] of Object.entries(operation.responses))
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
            expect(response.headers?.[name], `${method} ${path} ${status} ${name}`).toEqual({ $ref: `#/components/headers/${name}` });
  });
});

describe('row 7: a method the path does not have', () => {
  it('is a 405 method_not_allowed with Allow, in the envelope; an unknown path stays a 404', async () => {
    const owner = await api.newEntity();
    const put = await api.raw('PUT', '/v1/accounts', { key: owner.secret, body: { name: 'x' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(put.error).toMatchObject({ error: 'method_not_allowed', code: 'method_not_allowed', type: 'validation_error', allow: ['GET', 'POST'] });
    expect(put.error.request_id).toBe(put.headers.get('request-id'));
    // Before authentication, as on API Gateway: no key is needed to learn the methods of a path.
    const deleteList = await api.raw('DELETE', '/v1/locations');
    expect([deleteList.status, deleteList.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const postOne = await api.raw('POST', '/v1/locations/00000000-0000-0000-0000-000000000000', { key: owner.secret, body: {} });
    expect([postOne.status, postOne.headers.get('allow')]).toEqual([405, 'DELETE, GET, PATCH']);
    const unknown = await api.raw('PUT', '/v1/no-such-thing', { key: owner.secret });
    expect([unknown.status, unknown.error.code]).toEqual([404, 'route_not_found']);
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

describe('failed authentications per client address, and bounded caches', () => {
  const BUDGET = 10;
  // One token back every ten minutes: within a test the budget is what is left, however long it takes.
  const authFailureLimit = { ratePerSecond: 1 / 600, burst: BUDGET };
  const servers: http.Server[] = [];

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  /** A gateway of its own (fresh budgets and caches) whose authorizer counts its calls. */
  async function startGateway(options: Partial<GatewayOptions> = {}) {
    const calls = { count: 0 };
    const server = http.createServer(
      createGateway({
        routes: Object.values(ROUTE_MODULES),
        rateLimit: { ratePerSecond: 10_000, burst: 10_000 },
        authFailureLimit,
        authorizer: (event) => {
          calls.count++;
          return authorize(event);
        },
        ...options,
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    return { calls, port, client: createClient(() => `http://127.0.0.1:${port}`) };
  }

  // Well formed, so each one the authorizer sees is looked up in the database.
  const bogusKey = () => generateApiKey('test', 'bogus');

  it('row 4: answers 300 distinct bogus keys from one address with the budget of 401s, then 429s whose Retry-After is their RateLimit-Reset', async () => {
    const gateway = await startGateway();
    const responses = await Promise.all(Array.from({ length: 300 }, () => gateway.client.request('GET', '/v1/locations', { key: bogusKey() })));
    const invalid = responses.filter((response) => response.status === 401);
    const limited = responses.filter((response) => response.status === 429);
    expect(invalid).toHaveLength(BUDGET);
    expect(limited).toHaveLength(300 - BUDGET);
    for (const response of invalid) expect(response.error.code).toBe('api_key_invalid');
    for (const response of limited) {
      expect(response.error).toMatchObject({ error: 'rate_limit_exceeded', code: 'rate_limit_exceeded', type: 'rate_limit' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('retry-after')).toBe(response.headers.get('ratelimit-reset'));
      expect(response.headers.get('ratelimit-remaining')).toBe('0');
    }
    // A missing key is a failed authentication too.
    expect((await gateway.client.request('GET', '/v1/locations')).status).toBe(429);
  });

  it('row 4: charges only failures, and never refuses a valid key for the failures of another client at its address', async () => {
    const owner = await api.newEntity();
    const uncached = await startGateway();
    for (let i = 0; i < 3 * BUDGET; i++) expect((await uncached.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
    for (let i = 0; i < BUDGET + 5; i++) await uncached.client.request('GET', '/v1/locations', { key: bogusKey() });
    expect((await uncached.client.request('GET', '/v1/locations', { key: bogusKey() })).status).toBe(429);
    // The address is out of budget; a valid key not yet authorized still passes, and spends nothing.
    expect((await uncached.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
    expect((await uncached.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
    expect((await uncached.client.request('GET', '/v1/locations', { key: bogusKey() })).status).toBe(429);

    const cached = await startGateway({ authorizerCacheTtlMs: 60_000 });
    expect((await cached.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
    for (let i = 0; i < BUDGET; i++) expect((await cached.client.request('GET', '/v1/locations', { key: bogusKey() })).status).toBe(401);
    expect((await cached.client.request('GET', '/v1/locations', { key: bogusKey() })).status).toBe(429);
    expect((await cached.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
    // The valid key was checked once and then answered from the cache.
    expect(cached.calls.count).toBe(1 + BUDGET + 1);
  });

  // Linux routes all of 127.0.0.0/8 to the loopback interface; other systems may have only 127.0.0.1.
  it.skipIf(process.platform !== 'linux')('keeps one budget per client address', async () => {
    const gateway = await startGateway();
    const from = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.get(
          { host: '127.0.0.1', port: gateway.port, path: '/v1/locations', localAddress, headers: { Authorization: `Bearer ${bogusKey()}` } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
      });
    for (let i = 0; i < BUDGET; i++) expect(await from('127.0.0.2')).toBe(401);
    expect(await from('127.0.0.2')).toBe(429);
    expect(await from('127.0.0.3')).toBe(401);
  });

  it('keeps at most maxCachedKeys authorizer results, forgetting the least recently used', async () => {
    const [a, b, c] = [await api.newEntity(), await api.newEntity(), await api.newEntity()];
    const gateway = await startGateway({ authorizerCacheTtlMs: 60_000, maxCachedKeys: 2 });
    const callsAfter = async (owner: { secret: string }) => {
      expect((await gateway.client.request('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
      return gateway.calls.count;
    };
    expect(await callsAfter(a)).toBe(1);
    expect(await callsAfter(b)).toBe(2);
    expect(await callsAfter(a)).toBe(2); // cached; b is now the least recently used
    expect(await callsAfter(c)).toBe(3); // b is forgotten
    expect(await callsAfter(a)).toBe(3);
    expect(await callsAfter(b)).toBe(4);
  });
});

describe('request targets and headers', () => {
  it('treats query keys named like Object.prototype members as ordinary unknown parameters', async () => {
    // A key per request: this file's gateway allows a burst of 3 per key.
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const response = await api.raw('GET', `/v1/locations?${name}=1`, { key: (await api.newEntity()).secret });
      expect([response.status, response.error.code, response.error.param], name).toEqual([400, 'parameter_unknown', name]);
    }
    // Twice: answered exactly as an ordinary repeated name, not as an existing member.
    const twice = await api.raw('GET', '/v1/locations?constructor=1&constructor=2', { key: (await api.newEntity()).secret });
    const ordinary = await api.raw('GET', '/v1/locations?foo=1&foo=2', { key: (await api.newEntity()).secret });
    expect([twice.status, twice.error.code, twice.error.param]).toEqual([ordinary.status, ordinary.error.code, 'constructor']);
    expect(twice.status).toBe(400);
  });

  it('answers a malformed percent escape in a path parameter with 400 parameter_invalid on it', async () => {
    for (const segment of ['%', '%zz', '%E0%A4%A', '%C0%AF']) {
      const response = await api.raw('GET', `/v1/locations/${segment}`, { key: (await api.newEntity()).secret });
      expect([response.status, response.error.code, response.error.param], segment).toEqual([400, 'parameter_invalid', 'id']);
    }
  });

  it('routes a target starting with // by its path (empty segments ignored), not as a host', async () => {
    const owner = await api.newEntity();
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(api.baseUrl);
      const request = http.request({ hostname, port, path: '//v1/locations', headers: { Authorization: `Bearer ${owner.secret}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(200);
  });

  it('answers a URL over 8 KB with 414 uri_too_long and headers over 16 KB with 431 headers_too_large, in the envelope', async () => {
    const owner = await api.newEntity();
    for (const length of [9_000, 20_000, 100_000]) {
      const response = await api.raw('GET', `/v1/locations?name=${'a'.repeat(length)}`, { key: (await api.newEntity()).secret });
      expect([response.status, response.error.code, response.error.type], String(length)).toEqual([414, 'uri_too_long', 'validation_error']);
      expect(response.headers.get('request-id')).toBe(response.error.request_id);
    }
    const headers = await api.raw('GET', '/v1/locations', { key: owner.secret, headers: { 'X-Padding': 'p'.repeat(20_000) } });
    expect([headers.status, headers.error.code]).toEqual([431, 'headers_too_large']);
    // The server still answers afterwards.
    expect((await api.raw('GET', '/v1/locations', { key: owner.secret })).status).toBe(200);
  });

  it('refuses a body over the limit by its Content-Length before reading it', async () => {
    const owner = await api.newEntity();
    const response = await api.raw('POST', '/v1/locations', {
      key: owner.secret,
      rawBody: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'Content-Type': 'application/json' },
    });
    expect([response.status, response.error.code]).toEqual([413, 'request_too_large']);
  });
});
