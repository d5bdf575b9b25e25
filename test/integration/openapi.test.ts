import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/errors';
import { ERROR_STATUS } from '../../shared/http/error-status';
import type { RouteSchemas } from '../../shared/http/route';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

/** The parts of the OpenAPI document these tests read (the route types it as a record of unknown). */
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation | undefined>>;
  components: { schemas: { Error: { properties: { code: { enum: string[] } } } } };
  'x-error-catalog': Record<string, { status: number }>;
}
interface OpenApiOperation {
  operationId: string;
  'x-required-scopes': string[];
  security: unknown;
  parameters: { in: string; name: string }[];
  requestBody: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content: Record<string, { schema?: unknown; 'x-error-codes'?: string[] }> }>;
}
const openApiDocument = async () => (await api.request('GET', '/v1/openapi.json')).body as unknown as OpenApiDocument;

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
    const doc = await openApiDocument();
    for (const route of ROUTES) {
      const found = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      const operation = found!;
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
      const schemas: RouteSchemas = route;
      for (const name of Object.keys(schemas.params?.shape ?? {})) {
        expect(operation.parameters.some((p) => p.in === 'path' && p.name === name)).toBe(true);
      }
      for (const name of Object.keys(schemas.query?.shape ?? {})) {
        expect(operation.parameters.some((p) => p.in === 'query' && (p.name === name || p.name === `${name}[]`))).toBe(true);
      }
    }
  });

  it('lists every error code of the catalog, with its status', async () => {
    const doc = await openApiDocument();
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const code of Object.keys(ERROR_CATALOG)) expect(doc['x-error-catalog'][code].status).toBe(ERROR_STATUS[code as ErrorCode]);
    const codesInResponses = new Set<string>();
    for (const item of Object.values(doc.paths))
      for (const operation of Object.values(item))
        for (const response of Object.values(operation?.responses ?? {}))
          for (const code of response.content?.['application/json']?.['x-error-codes'] ?? []) codesInResponses.add(code);
    for (const code of ['insufficient_scope', 'idempotency_key_reused', 'precondition_failed', 'expand_error', 'location_name_taken', 'manufacturer_in_use']) {
      expect(codesInResponses.has(code), code).toBe(true);
    }
  });
});
