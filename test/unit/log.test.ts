/** The lines Powertools Logger writes through the project's formatter (shared/log-formatter.ts). */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors';
import { scrubText } from '../../shared/log-formatter';
import { logger, requestLogger } from '../../shared/powertools';
import { emittedDuring } from '../support/emitted-lines';

const PAN = '4111111111111111';

describe('log', () => {
  it("writes one JSON line per call: Powertools' standard keys, then the request's, then the call's fields", async () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    try {
      const { lines, logs } = await emittedDuring(() => {
        requestLogger({ request_id: 'req_1', route: 'locations.get', entity_id: 'ent_1', key_id: 'key_1', cold_start: true }).warn('slow', { ms: 12 });
        logger.debug('outside a request');
      });
      expect(lines).toHaveLength(2);
      expect(logs[0]).toEqual({
        level: 'WARN',
        message: 'slow',
        service: 'bizops-api',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
        request_id: 'req_1',
        route: 'locations.get',
        entity_id: 'ent_1',
        key_id: 'key_1',
        cold_start: true,
        ms: 12,
      });
      expect(Object.keys(logs[0]).slice(0, 5)).toEqual(['level', 'message', 'service', 'timestamp', 'xray_trace_id']);
      expect(logs[1]).toMatchObject({ level: 'DEBUG', message: 'outside a request' });
      expect(logs[1]).not.toHaveProperty('request_id');
    } finally {
      delete process.env._X_AMZN_TRACE_ID;
    }
  });

  it('writes nothing below its level', async () => {
    const { lines } = await emittedDuring(() => {
      logger.setLogLevel('ERROR');
      logger.warn('not written');
      logger.error('written');
    });
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(['written']);
  });

  it('writes an error as name, scrubbed message, the safe pg members and stack frames, never the value', async () => {
    const unique = Object.assign(new Error(`duplicate key value violates unique constraint "products_sku_unique"`), {
      code: '23505',
      constraint: 'products_sku_unique',
      table: 'products',
      detail: `Key (entity_id, lower(sku))=(0190abcd-0000-7000-8000-000000000001, ${PAN}) already exists.`,
      where: `SQL statement "INSERT ... VALUES ('${PAN}')"`,
    });
    const syntax = Object.assign(new Error(`invalid input syntax for type uuid: "${PAN}"`), { code: '22P02' });
    const decimal = new Error(`[DecimalError] Invalid argument: ${PAN}abc`);
    const zodError = z.object({ sku: z.string().check(z.maxLength(3)) }).safeParse({ sku: PAN }).error!;
    const { lines } = await emittedDuring(() =>
      logger.error('unhandled error', {
        requestId: 'req_1',
        error: new ApiError('internal_error', { cause: unique }),
        syntax,
        decimal,
        zodError,
        other: new Error('wrapped', { cause: { value: PAN } }),
      }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('4111');
    const parsed = JSON.parse(lines[0]) as Record<string, Record<string, unknown>>;
    expect(parsed.error.cause).toMatchObject({ code: '23505', constraint: 'products_sku_unique', table: 'products' });
    expect(parsed.error.cause).not.toHaveProperty('detail');
    expect((parsed.error.cause as { message: string }).message).toBe('duplicate key value violates unique constraint "…"');
    expect(parsed.syntax.message).toBe('invalid input syntax for type uuid: [redacted]');
    expect(parsed.decimal.message).toBe('[DecimalError] Invalid argument: [redacted]');
    expect(String(parsed.error.stack)).toMatch(/^\s+at /);
    expect(parsed.other.cause).toBe('[object]');
  });

  it('scrubText masks quoted text and runs of four or more digits, and leaves words alone', () => {
    expect(scrubText(`value ${PAN} and 4111 1111 1111 1111 and 12`)).toBe('value # and # and 12');
    expect(scrubText(`column "sku" of relation 'x'`)).toBe('column "…" of relation \'…\'');
    expect(scrubText('Cannot read properties of undefined')).toBe('Cannot read properties of undefined');
  });
});
