/**
 * The local gateway's route table (local/route-matcher.ts) and the response-validation switch of the
 * handler stack.
 */
import { describe, expect, it } from 'vitest';
import { buildRouteTable } from '../../local/route-matcher';
import { responseValidationEnabled } from '../../shared/http/route-pipeline';
import { ApiError } from '../../shared/errors';

const module = (method: string, path: string) => ({ route: { method, path }, name: `${method} ${path}` });

describe('buildRouteTable', () => {
  const table = buildRouteTable([
    module('GET', '/v1/api-keys/{id}'),
    module('POST', '/v1/api-keys/{id}/roll'),
    module('POST', '/v1/api-keys/{id}/{action}'),
    module('GET', '/v1/products'),
    module('GET', '/v1/products/{id}'),
    module('GET', '/v1/products/search'),
    module('GET', '/v1/entities/{entity_id}/api-keys/{id}'),
  ]);

  it('row 7: names the methods a path has, for the 405 of a method it lacks', () => {
    expect(table.methodsAt('/v1/api-keys/key_1')).toEqual(['GET']);
    expect(table.methodsAt('/v1/api-keys/key_1/roll')).toEqual(['POST']);
    expect(table.methodsAt('/v1/products/search')).toEqual(['GET']);
    expect(table.methodsAt('/v1/nothing')).toEqual([]);
    // A malformed path has no methods (its 400 comes from matching it).
    expect(table.methodsAt('/v1/api-keys/%zz')).toEqual([]);
  });

  it('prefers the most literal route, as API Gateway does', () => {
    expect(table.match('POST', '/v1/api-keys/key_1/roll')?.route.name).toBe('POST /v1/api-keys/{id}/roll');
    expect(table.match('POST', '/v1/api-keys/key_1/revoke')).toEqual({
      route: expect.objectContaining({ name: 'POST /v1/api-keys/{id}/{action}' }) as unknown,
      params: { id: 'key_1', action: 'revoke' },
    });
    expect(table.match('GET', '/v1/products/search')?.route.name).toBe('GET /v1/products/search');
    expect(table.match('GET', '/v1/products/prod_9')?.params).toEqual({ id: 'prod_9' });
  });

  it('matches literal paths whatever the slashes around them, and by method and segment count', () => {
    expect(table.match('GET', '/v1/products/')?.route.name).toBe('GET /v1/products');
    expect(table.match('GET', '//v1//products')).toEqual({ route: expect.objectContaining({ name: 'GET /v1/products' }) as unknown, params: null });
    expect(table.match('GET', '/v1//products/prod_9/')?.params).toEqual({ id: 'prod_9' });
    expect(table.match('POST', '/v1/products')).toBeUndefined();
    expect(table.match('GET', '/v1/products/a/b')).toBeUndefined();
    expect(table.match('GET', '/v2/products/a')).toBeUndefined();
  });

  it('percent-decodes parameters and answers a malformed escape with parameter_invalid on that parameter', () => {
    expect(table.match('GET', '/v1/entities/ent%201/api-keys/k%2Fx')?.params).toEqual({ entity_id: 'ent 1', id: 'k/x' });
    let thrown: unknown;
    try {
      table.match('GET', '/v1/entities/ent_1/api-keys/%zz');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe('parameter_invalid');
    expect((thrown as ApiError).options.param).toBe('id');
  });
});

describe('responseValidationEnabled', () => {
  it('is on in tests, off elsewhere, and VALIDATE_RESPONSES decides when set', () => {
    expect(responseValidationEnabled({ NODE_ENV: 'test' })).toBe(true);
    expect(responseValidationEnabled({})).toBe(false);
    expect(responseValidationEnabled({ NODE_ENV: 'production' })).toBe(false);
    expect(responseValidationEnabled({ VALIDATE_RESPONSES: '1' })).toBe(true);
    expect(responseValidationEnabled({ NODE_ENV: 'production', VALIDATE_RESPONSES: 'true' })).toBe(true);
    expect(responseValidationEnabled({ NODE_ENV: 'test', VALIDATE_RESPONSES: '0' })).toBe(false);
    expect(responseValidationEnabled({ NODE_ENV: 'test', VALIDATE_RESPONSES: '' })).toBe(true);
  });
});
