/**
 * What a request leaves in the logs and metrics (shared/powertools.ts, shared/http/observe.ts):
 * every line carries the request id, the route, the entity and key ids and the cold start flag; no
 * request value (body fields, the key's secret, values quoted in an error) reaches a line; each
 * request writes its Requests and Latency by route, and a refused one its Errors by code, as EMF
 * records on stdout.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { emittedDuring } from '../support/emitted-lines';
import { setupTestApi } from '../support/harness';

// Powertools Metrics reads this when shared/powertools.ts is first imported (the tests turn EMF off).
vi.hoisted(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});
const { lambdaHandler } = await import('../../shared/http/handler-stack');
const { observed } = await import('../../shared/http/observe');
const { defineRoute } = await import('../../shared/http/route');

const api = setupTestApi();

/** Values an integrator sends that must never be logged. */
const NAME = 'Quietwater Depot';
const PHONE = '+1 555 0142 9931';
const CARD = '4111111111111111';

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
    const { lines, logs, metrics } = await emittedDuring(() => failing(event, context));

    expect(logs).toHaveLength(1);
    const [line] = logs;
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
    for (const value of [NAME, PHONE, CARD, '0142', '9931']) expect(lines.join('\n')).not.toContain(value);

    expect(metrics.map((record) => Object.keys(record).filter((key) => /^[A-Z]/.test(key)))).toEqual([['Requests', 'Latency'], ['Errors']]);
    expect(metrics[0]).toMatchObject({ route: 'locations.create', Requests: 1 });
    expect(metrics[1]).toMatchObject({ code: 'internal_error', Errors: 1 });
  });

  it('keep the values of real requests out, accepted or refused, and count them by route and error code', async () => {
    const { secret } = await api.newEntity();
    const started = process.hrtime.bigint();
    const { lines, metrics } = await emittedDuring(async () => {
      const created = await api.raw('POST', '/v1/locations', { key: secret, body: { name: NAME, phone: PHONE, country: 'US' } });
      expect(created.status, created.text).toBe(201);
      const refused = await api.raw('POST', '/v1/locations', { key: secret, body: { name: NAME, phone: PHONE, country: 'Atlantis' } });
      expect(refused.status, refused.text).toBe(400);
    });
    for (const value of [NAME, PHONE, 'Atlantis', secret]) expect(lines.join('\n')).not.toContain(value);

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
    const { logs } = await emittedDuring(async () => {
      status = (await lambdaHandler(failing)(event, { awsRequestId: 'lambda-invocation-2' } as Context)).statusCode;
    });
    expect(status).toBe(500);
    expect(logs.map((line) => line.message)).toEqual(['about to fail', 'unhandled error']);
    for (const line of logs) {
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
