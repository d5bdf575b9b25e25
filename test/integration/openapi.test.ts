import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/errors';
import { ERROR_STATUS } from '../../shared/http/error-status';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

describe('GET /v1/openapi.json', () => {
  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const response = await api.request('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeTruthy();
    expect(response.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route with its scopes, parameters, bodies and responses', async () => {
    const doc = (await api.request('GET', '/v1/openapi.json')).body;
    for (const route of ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.id);
      if (route.auth === 'api_key') {
        expect(operation['x-required-scopes']).toEqual(route.scopes);
        expect(operation.security).toEqual(
          route.scopeMatch === 'any' ? route.scopes.map((scope) => ({ bearerAuth: [scope] })) : [{ bearerAuth: route.scopes }],
        );
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '404', '429', '500']));
      }
      expect(operation.responses[String(route.successStatus ?? 200)].content['application/json'].schema).toBeDefined();
      if (route.body) expect(operation.requestBody.content['application/json'].schema).toBeDefined();
      for (const name of Object.keys(route.params?.shape ?? {})) {
        expect(operation.parameters.some((p: any) => p.in === 'path' && p.name === name)).toBe(true);
      }
      for (const name of Object.keys(route.query?.shape ?? {})) {
        expect(operation.parameters.some((p: any) => p.in === 'query' && (p.name === name || p.name === `${name}[]`))).toBe(true);
      }
    }
  });

  it('lists every error code of the catalog, with its status', async () => {
    const doc = (await api.request('GET', '/v1/openapi.json')).body;
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const code of Object.keys(ERROR_CATALOG)) expect(doc['x-error-catalog'][code].status).toBe(ERROR_STATUS[code as ErrorCode]);
    const codesInResponses = new Set<string>();
    for (const item of Object.values<any>(doc.paths))
      for (const operation of Object.values<any>(item))
        for (const response of Object.values<any>(operation.responses))
          for (const code of response.content?.['application/json']?.['x-error-codes'] ?? []) codesInResponses.add(code);
    for (const code of ['insufficient_scope', 'idempotency_key_reused', 'precondition_failed', 'expand_error', 'location_name_taken', 'manufacturer_in_use']) {
      expect(codesInResponses.has(code), code).toBe(true);
    }
  });
});
