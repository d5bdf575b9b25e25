import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_CATALOG, ERROR_TYPES, errorKey, notFound, type ErrorCode, type ErrorType } from '../../shared/errors';
import { ERROR_STATUS, statusOf } from '../../shared/http/error-status';

/** Each code with its catalog entry and the status the edge gives it. */
const entries = (Object.keys(ERROR_CATALOG) as ErrorCode[]).map((code) => [code, { ...ERROR_CATALOG[code], status: ERROR_STATUS[code] }] as const);

/** Which statuses each envelope type may use. */
const STATUSES_BY_TYPE: Record<ErrorType, number[]> = {
  validation_error: [400, 405, 413, 414, 415, 422, 431],
  expand_error: [400],
  permission_error: [401, 403],
  not_found: [404],
  conflict: [409, 412],
  rate_limit: [429],
  internal: [500, 503],
  not_implemented: [501],
};

describe('ERROR_CATALOG', () => {
  it.each(entries)('%s has a type from ERROR_TYPES and a status that fits the type', (_code, entry) => {
    expect(ERROR_TYPES).toContain(entry.type);
    expect(STATUSES_BY_TYPE[entry.type]).toContain(entry.status);
  });

  it('uses 4xx for every client error and 5xx only for internal and not_implemented', () => {
    for (const [code, entry] of entries) {
      if (entry.type === 'internal' || entry.type === 'not_implemented') expect(entry.status, code).toBeGreaterThanOrEqual(500);
      else {
        expect(entry.status, code).toBeGreaterThanOrEqual(400);
        expect(entry.status, code).toBeLessThan(500);
      }
    }
  });

  it('gives every code a non-empty error key and hint', () => {
    for (const [code, entry] of entries) {
      expect(errorKey(code), code).toMatch(/^[a-z_]+$/);
      expect(entry.hint.length, code).toBeGreaterThan(0);
    }
  });

  it('uses authentication_failed for every 401 and no other status', () => {
    for (const [code, entry] of entries) expect(entry.status === 401, code).toBe(errorKey(code) === 'authentication_failed');
  });

  it('error is the machine-readable key: equal to code outside the documented 401 family', () => {
    for (const [code, entry] of entries) if (entry.status !== 401) expect(errorKey(code), code).toBe(code);
    // The spec's table: an integrator keying on `error` tells these conflicts apart.
    expect(new ApiError('manufacturer_in_use').toEnvelope('r')).toMatchObject({ error: 'manufacturer_in_use', code: 'manufacturer_in_use', type: 'conflict' });
    expect(new ApiError('order_not_deletable').toEnvelope('r')).toMatchObject({ error: 'order_not_deletable', type: 'conflict' });
    expect(new ApiError('api_key_revoked').toEnvelope('r')).toMatchObject({ error: 'authentication_failed', code: 'api_key_revoked' });
  });
});

describe('ApiError', () => {
  it('takes its default hint from the catalog and its status from the edge table', () => {
    const error = new ApiError('not_found');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.code).toBe('not_found');
    expect(statusOf(error)).toBe(404);
    expect(error.message).toBe(ERROR_CATALOG.not_found.hint);
  });

  it('uses a given hint as message', () => {
    expect(new ApiError('parameter_invalid', { hint: 'custom' }).message).toBe('custom');
  });

  it('keeps the cause', () => {
    const cause = new Error('db down');
    expect(new ApiError('internal_error', { cause }).cause).toBe(cause);
  });

  it('notFound names the id parameter unless told otherwise', () => {
    expect(notFound().toEnvelope('req_1')).toMatchObject({ code: 'not_found', param: 'id' });
    expect(notFound('location_id').toEnvelope('req_1')).toMatchObject({ param: 'location_id' });
  });
});

describe('ApiError.toEnvelope', () => {
  it('has error, code, type, hint and request_id, and no param or required when they are not set', () => {
    const envelope = new ApiError('rate_limit_exceeded').toEnvelope('req_123');
    expect(envelope).toEqual({
      error: 'rate_limit_exceeded',
      code: 'rate_limit_exceeded',
      type: 'rate_limit',
      hint: ERROR_CATALOG.rate_limit_exceeded.hint,
      doc_url: 'http://localhost:3000/docs#error-rate_limit_exceeded',
      request_id: 'req_123',
    });
    expect('param' in envelope).toBe(false);
    expect('required' in envelope).toBe(false);
  });

  it('includes param when set, and the custom hint instead of the catalog one', () => {
    const envelope = new ApiError('parameter_missing', { param: 'name', hint: 'Missing required parameter: name.' }).toEnvelope('req_1');
    expect(envelope).toEqual({
      error: 'parameter_missing',
      code: 'parameter_missing',
      type: 'validation_error',
      hint: 'Missing required parameter: name.',
      param: 'name',
      doc_url: 'http://localhost:3000/docs#error-parameter_missing',
      request_id: 'req_1',
    });
  });

  it('includes an empty-string param (only undefined is left out)', () => {
    expect(new ApiError('parameter_invalid', { param: '' }).toEnvelope('r')).toHaveProperty('param', '');
  });

  it('carries required on insufficient_scope', () => {
    const envelope = new ApiError('insufficient_scope', { required: 'orders:write' }).toEnvelope('req_9');
    expect(envelope).toMatchObject({
      error: 'insufficient_scope',
      code: 'insufficient_scope',
      type: 'permission_error',
      required: 'orders:write',
      request_id: 'req_9',
    });
    expect(statusOf(new ApiError('insufficient_scope', { required: 'orders:write' }))).toBe(403);
  });

  it('merges details into the envelope', () => {
    const envelope = new ApiError('manufacturer_in_use', { details: { references: 3, current_status: 'active' } }).toEnvelope('req_2');
    expect(envelope).toMatchObject({ code: 'manufacturer_in_use', references: 3, current_status: 'active', request_id: 'req_2' });
  });

  it('does not let details override request_id', () => {
    const envelope = new ApiError('not_found', { details: { request_id: 'forged' } }).toEnvelope('req_real');
    expect(envelope.request_id).toBe('req_real');
  });

  it('does not put headers or cause into the envelope', () => {
    const envelope = new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': '1' }, cause: new Error('x') }).toEnvelope('r');
    expect(envelope).not.toHaveProperty('headers');
    expect(envelope).not.toHaveProperty('cause');
  });

  it('is JSON-serialisable for every code', () => {
    for (const [code] of entries) {
      const envelope = new ApiError(code).toEnvelope('req_x');
      expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
      expect(envelope.code).toBe(code);
      expect(envelope.type).toBe(ERROR_CATALOG[code].type);
      expect(envelope.error).toBe(errorKey(code));
    }
  });
});
