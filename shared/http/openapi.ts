/**
 * The OpenAPI 3.1 document, generated from the route table: nothing here is written by hand
 * per route. Schemas come from the routes' zod schemas (JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is); named schemas (`.meta({ id })`) become components; every error code comes from the
 * catalog.
 */
import { z } from 'zod';
import { API_VERSION } from '../version';
import { ERROR_CATALOG, ERROR_TYPES, type ErrorCode } from '../errors';
import { ERROR_STATUS } from './error-status';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { acceptsIdempotencyKey, type Route, type RouteSchemas } from './route';

type JsonSchema = Record<string, unknown>;

/** Codes any API-key route can return, whatever it does. */
const SHARED_CODES: ErrorCode[] = [
  'invalid_json',
  'parameter_missing',
  'parameter_invalid',
  'parameter_unknown',
  'unsupported_media_type',
  'request_too_large',
  'api_key_missing',
  'api_key_malformed',
  'api_key_invalid',
  'api_key_revoked',
  'api_key_expired',
  'api_key_mode_not_allowed',
  'insufficient_scope',
  'not_found',
  'rate_limit_exceeded',
  'internal_error',
];

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    for (const [name, def] of Object.entries(defs)) this.components[name] = this.rewrite(def) as JsonSchema;
    const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
    if (id && io === 'output') {
      // zod answers a registered schema with a bare $ref to its own definition (already collected
      // from $defs above); storing that reference as the component would make it point at itself.
      delete json.id;
      if (json.$ref !== `#/$defs/${id}`) this.components[id] = this.rewrite(json) as JsonSchema;
      return { $ref: `#/components/schemas/${id}` };
    }
    return this.rewrite(json) as JsonSchema;
  }

  private rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewrite(item));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'id' && typeof inner === 'string') continue; // zod's registry id, not a JSON Schema keyword here
        out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : this.rewrite(inner);
      }
      return out;
    }
    return value;
  }
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parameters(route: Route, collector: SchemaCollector): JsonSchema[] {
  const schemas: RouteSchemas = route;
  const out: JsonSchema[] = [];
  for (const [location, object] of [
    ['path', schemas.params],
    ['query', schemas.query],
  ] as const) {
    if (!object) continue;
    for (const [name, member] of Object.entries(object.shape as Record<string, z.ZodType>)) {
      const schema = collector.convert(member, 'input');
      const description = schema.description as string | undefined;
      delete schema.description;
      const isArray = schema.type === 'array';
      out.push({
        name: isArray ? `${name}[]` : name,
        in: location,
        required: location === 'path' || !isOptional(member),
        ...(description && { description }),
        schema,
        ...(isArray && { style: 'form', explode: true }),
      });
    }
  }
  if (route.auth === 'api_key' && route.expand) {
    const names = Object.keys(route.expand).map((name) => (route.list ? `data.${name}` : name));
    out.push({
      name: 'expand[]',
      in: 'query',
      required: false,
      description: 'Related objects to include in the response, batched. Unknown values are a 400 expand_error naming expand[n].',
      schema: { type: 'array', items: { type: 'string', enum: names } },
      style: 'form',
      explode: true,
    });
  }
  if (acceptsIdempotencyKey(route)) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes the request safe to retry for 24 hours: a retry with the same key returns the original status and body with Idempotent-Replayed: true; the same key with different parameters is a 422; while the first request runs, a 409 with Retry-After.',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    });
  }
  if (route.method === 'GET') {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag from a previous response; 304 when unchanged.',
      schema: { type: 'string' },
    });
  }
  if (route.auth === 'api_key' && route.current) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The ETag of the current representation (from its GET); 412 when the resource has changed since.',
      schema: { type: 'string' },
    });
  }
  return out;
}

function errorCodesOf(route: Route): ErrorCode[] {
  if (route.auth === 'none') return ['rate_limit_exceeded', 'internal_error', ...(route.errors ?? [])];
  const codes = new Set<ErrorCode>([...SHARED_CODES, ...(route.errors ?? [])]);
  if (route.expand) codes.add('expand_error');
  if (acceptsIdempotencyKey(route))
    ['idempotency_key_invalid', 'idempotency_key_in_use', 'idempotency_key_reused'].forEach((code) => codes.add(code as ErrorCode));
  if (route.current) codes.add('precondition_failed');
  return [...codes];
}

function responses(route: Route, collector: SchemaCollector): JsonSchema {
  const schemas: RouteSchemas = route;
  const success = String(route.successStatus ?? 200);
  const headers = {
    'Request-Id': { $ref: '#/components/headers/Request-Id' },
    ...(route.method === 'GET' && { ETag: { $ref: '#/components/headers/ETag' } }),
    ...(acceptsIdempotencyKey(route) && { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }),
  };
  const out: JsonSchema = {
    [success]: { description: route.summary, headers, content: { 'application/json': { schema: collector.convert(schemas.response, 'output') } } },
  };
  if (route.method === 'GET') out['304'] = { description: 'Not modified: the If-None-Match ETag is current.', headers };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `Error codes: ${codes.join(', ')}.`,
      headers: {
        'Request-Id': { $ref: '#/components/headers/Request-Id' },
        ...((status === 429 || status === 409) && { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, 'x-error-codes': codes } },
    };
  }
  return out;
}

export function buildOpenApiDocument(routes: Route[]): JsonSchema {
  const collector = new SchemaCollector();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const schemas: RouteSchemas = route;
    const scopes = route.auth === 'api_key' ? route.scopes : [];
    const anyScope = route.auth === 'api_key' && route.scopeMatch === 'any';
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = {
      operationId: route.id,
      summary: route.summary,
      description: [
        route.description,
        anyScope
          ? `Requires one of the scopes: ${scopes.join(', ')}.`
          : scopes.length
            ? `Requires scope${scopes.length > 1 ? 's' : ''}: ${scopes.join(', ')}.`
            : 'No authentication.',
      ]
        .filter(Boolean)
        .join('\n\n'),
      tags: [route.tag],
      // OpenAPI lists alternative security requirements as separate objects.
      security: route.auth === 'api_key' ? (anyScope ? scopes.map((scope) => ({ bearerAuth: [scope] })) : [{ bearerAuth: scopes }]) : [],
      'x-required-scopes': scopes,
      ...(anyScope && { 'x-scope-match': 'any' }),
      parameters: parameters(route, collector),
      ...(schemas.body && { requestBody: { required: true, content: { 'application/json': { schema: collector.convert(schemas.body, 'input') } } } }),
      responses: responses(route, collector),
    };
  }
  const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Operations API',
      version: API_VERSION,
      description:
        "Multi-tenant REST API for sales and purchase documents, catalog, ledger and migration tooling. Every request is scoped to the entity of its API key; another entity's ids are 404s.",
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://localhost:3000', description: 'The service host root; paths carry /v1.' } } }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key: bo_<live|test>_ent_<entity_code>_<secret>. Scopes are <area>:read or <area>:write (write implies read), plus migration:admin.',
        },
      },
      headers: {
        'Request-Id': { description: 'Unique id of this request; quote it to support.', schema: { type: 'string' } },
        ETag: { description: 'Validator of this representation, for If-None-Match and If-Match.', schema: { type: 'string' } },
        'Idempotent-Replayed': {
          description: 'true when this response is a replay of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
      schemas: {
        ...collector.components,
        Error: {
          type: 'object',
          description: 'The error envelope of every failure.',
          required: ['error', 'code', 'type', 'hint', 'request_id'],
          properties: {
            error: { type: 'string', description: 'Broad machine-readable key.' },
            code: { type: 'string', enum: codes, description: 'Precise machine-readable code; see x-error-catalog.' },
            type: { type: 'string', enum: [...ERROR_TYPES] },
            hint: { type: 'string', description: 'One-sentence English explanation.' },
            param: { type: 'string', description: 'The offending parameter, e.g. name, components[2].quantity_per_kit or expand[1].' },
            required: { type: 'string', description: 'The scope needed; only on insufficient_scope.' },
            request_id: { type: 'string' },
          },
          additionalProperties: true,
        },
      },
    },
    'x-error-catalog': Object.fromEntries(codes.map((code) => [code, { status: ERROR_STATUS[code], ...ERROR_CATALOG[code] }])),
  };
}
