/**
 * What a request leaves in the logs and metrics (shared/log.ts, shared/http/observe.ts,
 * shared/metrics.ts): every line carries the request id, the route, the entity and key ids and the
 * cold start flag; no request value (body fields, the key's secret, values quoted in an error)
 * reaches a line; each request writes its Requests and Latency by route, and a refused one its
 * Errors by code.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { observed } from '../../shared/http/observe';
import { defineRoute } from '../../shared/http/route';
import { captureMetrics } from '../../shared/metrics';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

/** Values an integrator sends that must never be logged. */
const NAME = 'Quietwater Depot';
const PHONE = '+1 555 0142 9931';
const CARD = '4111111111111111';

/** The console lines written while `run` runs (every level). */
async function linesDuring(run: () => Promise<unknown>): Promise<string[]> {
  vi.stubEnv('LOG_LEVEL', 'DEBUG');
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  vi.spyOn(console, 'log').mockImplementation(keep);
  vi.spyOn(console, 'error').mockImplementation(keep);
  vi.spyOn(console, 'warn').mockImplementation(keep);
  try {
    await run();
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('request logs', () => {
  it('carry the request id, route, entity, key and cold start on every line, and never a value of the request', async () => {
    const event = {
      httpMethod: 'POST',
      path: '/v1/locations',
      headers: { Authorization: `Bearer bo_test_ent_acme_${CARD}` },
      body: JSON.stringify({ name: NAME, phone: PHONE }),
      requestContext: { requestId: 'req-logging-1', authorizer: { entityId: 'ent-1', keyId: 'key-1' } },
    } as unknown as APIGatewayProxyEvent;
    const context = { awsRequestId: 'lambda-invocation-1' } as Context;
    // A failure whose error quotes what the request sent, as pg and decimal.js messages do.
    const failing = observed('locations.create', (_event, _context, requestLog) => {
      requestLog.error('unhandled error', { error: new Error(`insert into locations failed for "${NAME}" (phone ${PHONE}, card ${CARD})`) });
      return Promise.resolve({ statusCode: 500, body: JSON.stringify({ code: 'internal_error' }) });
    });
    let metrics: Record<string, unknown>[] = [];
    const lines = await linesDuring(async () => {
      metrics = await captureMetrics(() => failing(event, context));
    });

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'unhandled error',
      request_id: 'req-logging-1',
      function_request_id: 'lambda-invocation-1',
      route: 'locations.create',
      entity_id: 'ent-1',
      key_id: 'key-1',
    });
    expect(typeof line.cold_start).toBe('boolean');
    for (const value of [NAME, PHONE, CARD, '0142', '9931']) expect(lines[0]).not.toContain(value);

    expect(metrics.map((record) => Object.keys(record).filter((key) => /^[A-Z]/.test(key)))).toEqual([['Requests', 'Latency'], ['Errors']]);
    expect(metrics[0]).toMatchObject({ route: 'locations.create', Requests: 1 });
    expect(metrics[1]).toMatchObject({ code: 'internal_error', Errors: 1 });
  });

  it('keep the values of real requests out, accepted or refused, and count them by route and error code', async () => {
    const { secret } = await api.newEntity();
    let metrics: Record<string, unknown>[] = [];
    const started = process.hrtime.bigint();
    const lines = await linesDuring(async () => {
      metrics = await captureMetrics(async () => {
        const created = await api.raw('POST', '/v1/locations', { key: secret, body: { name: NAME, phone: PHONE, country: 'US' } });
        expect(created.status, created.text).toBe(201);
        const refused = await api.raw('POST', '/v1/locations', { key: secret, body: { name: NAME, phone: PHONE, country: 'Atlantis' } });
        expect(refused.status, refused.text).toBe(400);
      });
    });
    const logged = lines.join('\n');
    for (const value of [NAME, PHONE, 'Atlantis', secret]) expect(logged).not.toContain(value);
    expect(JSON.stringify(metrics)).not.toContain(NAME);

    const requests = metrics.filter((record) => 'Requests' in record);
    expect(requests.map((record) => record.route)).toEqual(['locations.create', 'locations.create']);
    // Milliseconds, each within the time both requests took together.
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    for (const record of requests) {
      expect(record.Latency).toBeGreaterThan(0);
      expect(record.Latency).toBeLessThanOrEqual(elapsedMs);
    }
    const errors = metrics.filter((record) => 'Errors' in record);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'parameter_invalid', Errors: 1 });
    // EMF: the namespace and the dimension sets CloudWatch reads.
    const emf = (errors[0]._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] }).CloudWatchMetrics[0];
    expect(emf.Namespace).toBe('BizOps');
    expect(emf.Dimensions).toEqual([
      ['service', 'stage'],
      ['service', 'stage', 'code'],
    ]);
  });

  it("reach the lines written inside the stack: the route's own, the data layer's and the error envelope's", async () => {
    const { entity } = await api.newEntity();
    const failing = defineRoute({
      id: 'locations.get',
      method: 'GET',
      path: '/v1/logging-probe',
      tag: 'Locations',
      summary: 'A route that logs and then fails',
      scopes: ['settings:read'],
      response: z.object({}),
      handler: (ctx) => {
        ctx.log.warn('about to fail');
        return Promise.reject(new Error('boom'));
      },
    });
    const event = {
      httpMethod: 'GET',
      path: '/v1/logging-probe',
      headers: {},
      requestContext: {
        requestId: 'req-logging-2',
        authorizer: { entityId: entity.id, entityCode: entity.code, keyId: 'key-2', userId: 'user-2', mode: 'test', scopes: 'settings:read' },
      },
    } as unknown as APIGatewayProxyEvent;
    let status = 0;
    const lines = await linesDuring(async () => {
      status = (await lambdaHandler(failing)(event, { awsRequestId: 'lambda-invocation-2' } as Context)).statusCode;
    });
    expect(status).toBe(500);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.message)).toEqual(['about to fail', 'unhandled error']);
    for (const line of parsed) {
      expect(line).toMatchObject({
        request_id: 'req-logging-2',
        function_request_id: 'lambda-invocation-2',
        route: 'locations.get',
        entity_id: entity.id,
        key_id: 'key-2',
      });
    }
  });
});
