/**
 * The OpenAPI 3.1 document, generated from the route table: nothing here is written by hand
 * per route. Schemas come from the routes' zod schemas (JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is); named schemas (`.meta({ id })`) become components; every error code comes from the
 * catalog.
 */
import * as z from 'zod/mini';
import { SCOPE_AREAS } from '../auth/scopes';
import { API_VERSION } from '../version';
import { ERROR_CATALOG, ERROR_TYPES, errorKey, type ErrorCode } from '../errors';
import { ERROR_STATUS } from './error-status';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { LOCAL_SERVER } from './openapi-source';
import { HEADER_COMPONENTS, RATE_LIMIT_HEADERS } from './openapi-headers';
import {
  ERROR_EXAMPLE_PREFERENCE,
  errorEnvelopeExample,
  idempotencyKeyExample,
  recordedExamples,
  type OperationExample,
  type OperationExamples,
} from './openapi-examples';
import { COMPONENT_DESCRIPTIONS, dryRunSection, errorsSection, INPUT_LIMITS, METHODS, RATE_LIMITS, REFERENCE_PAGE, TAG_DESCRIPTIONS } from './openapi-prose';
import { acceptsDryRun, DRY_RUN_PARAMETER, supportsDryRun } from './dry-run';
import { IGNORED_BODY_MEMBER } from './request-input';
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
  'uri_too_long',
  'headers_too_large',
  'raw_card_data_refused',
  'raw_bank_data_refused',
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
  'service_unavailable',
];

/** What a dry run adds to the real answer's body (shared/http/dry-run.ts, DryRunMembers). */
const DRY_RUN_PROPERTIES: Record<string, JsonSchema> = {
  dry_run: { type: 'boolean', const: true, description: 'This answer is a dry run: nothing was kept.' },
  journal_entries: {
    type: 'array',
    items: { $ref: '#/components/schemas/JournalEntry' },
    description: 'The journal entries the request would post, in posting order (their ids and numbers were not kept); empty when it posts nothing.',
  },
  events: { type: 'array', items: { type: 'string' }, description: 'The types of the events the request would emit, in order.' },
};

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  /**
   * The components, each titled with its name (what renderers and generated types show) and
   * described: by its own schema's description, else by COMPONENT_DESCRIPTIONS.
   */
  describedComponents(): Record<string, JsonSchema> {
    return Object.fromEntries(
      Object.entries(this.components).map(([name, schema]) => [
        name,
        { title: name, ...(COMPONENT_DESCRIPTIONS[name] !== undefined && { description: COMPONENT_DESCRIPTIONS[name] }), ...schema },
      ]),
    );
  }

  convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
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

  /**
   * The schema of a dry run's answer to a request whose real answer is `body`: the same object with
   * dry_run, journal_entries and events added (dry-run.ts). A named body gets a named variant.
   */
  dryRunVariant(body: JsonSchema): JsonSchema {
    const ref = typeof body.$ref === 'string' ? body.$ref : undefined;
    const name = ref?.slice('#/components/schemas/'.length);
    const base = name ? this.components[name] : body;
    if (!base || base.type !== 'object' || typeof base.properties !== 'object') throw new Error(`a dry-run answer needs an object body (${name ?? 'inline'})`);
    const variant: JsonSchema = {
      ...base,
      properties: { ...(base.properties as JsonSchema), ...DRY_RUN_PROPERTIES },
      required: [...((base.required as string[] | undefined) ?? []), ...Object.keys(DRY_RUN_PROPERTIES)],
    };
    if (!name) return variant;
    this.components[`${name}DryRun`] ??= { description: `The answer of a dry run (dry_run=true) whose real answer is ${name}.`, ...variant };
    return { $ref: `#/components/schemas/${name}DryRun` };
  }

  private rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewrite(item));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'id' && typeof inner === 'string') continue; // zod's registry id, not a JSON Schema keyword here
        // Example values are data: their `id` members are the example's own.
        if (key === 'examples') {
          out[key] = inner;
          continue;
        }
        out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : this.rewrite(inner);
      }
      if (out.type === 'integer' && out.format === undefined) out.format = integerFormat(out);
      return out;
    }
    return value;
  }
}

const INT32 = 2 ** 31;

/**
 * The OpenAPI format of an integer (what a generated client picks its type by): int32 when its
 * bounds fit in 32 bits, else int64 (zod's integers without bounds are JavaScript's safe integers).
 */
function integerFormat(schema: Record<string, unknown>): 'int32' | 'int64' {
  const bound = (name: string) => (typeof schema[name] === 'number' ? schema[name] : undefined);
  const low = bound('minimum') ?? bound('exclusiveMinimum');
  const high = bound('maximum') ?? bound('exclusiveMaximum');
  return low !== undefined && high !== undefined && low >= -INT32 && high < INT32 ? 'int32' : 'int64';
}

function isOptional(schema: z.ZodMiniType): boolean {
  return schema.safeParse(undefined).success;
}

/** The member every body may carry and the server ignores (request-input.ts), as every body schema states it. */
const IGNORED_MEMBER_SCHEMA: JsonSchema = {
  deprecated: true,
  description: "Ignored: the entity is always the API key's. Accepted so that a body naming it is not refused; send nothing.",
};

/** The body of a POST without parameters: nothing but the ignored member, and none needed. */
const EMPTY_BODY = 'EmptyBody';

/**
 * The requestBody of a route. Required exactly when a request needs one: the body schema refuses
 * `{}` (a request without a body is read as `{}`), or the route says so. A POST without a body
 * schema still reads a body when one is sent (an object with no members), so it declares that.
 */
function requestBody(route: Route, collector: SchemaCollector, example: OperationExample | undefined): JsonSchema | undefined {
  const schemas: RouteSchemas = route;
  if (!schemas.body) {
    if (route.method !== 'POST' || route.auth === 'none') return undefined;
    return { required: false, content: { 'application/json': { schema: { $ref: `#/components/schemas/${EMPTY_BODY}` }, example: {} } } };
  }
  const schema = collector.convert(schemas.body, 'input');
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type === 'object' && properties && !(IGNORED_BODY_MEMBER in properties)) {
    schema.properties = { ...properties, [IGNORED_BODY_MEMBER]: IGNORED_MEMBER_SCHEMA };
  }
  const required = route.bodyRequired ?? !schemas.body.safeParse({}).success;
  return { required, content: { 'application/json': { schema, ...(example?.request !== undefined && { example: example.request }) } } };
}

/**
 * A list pages one way at a time: starting_after and ending_before together are a 400. Tools that
 * send every parameter's example (Dredd, Portman) would send both, so ending_before shows none
 * where starting_after shows one; its description says what it takes.
 */
const excludedByExample = (name: string, example: OperationExample): boolean => name === 'ending_before' && example.parameters?.starting_after !== undefined;

function parameters(route: Route, collector: SchemaCollector, example: OperationExample | undefined): JsonSchema[] {
  const schemas: RouteSchemas = route;
  const out: JsonSchema[] = [];
  for (const [location, object] of [
    ['path', schemas.params],
    ['query', schemas.query],
  ] as const) {
    if (!object) continue;
    for (const [name, member] of Object.entries(object.shape as Record<string, z.ZodMiniType>)) {
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
        ...(example?.parameters?.[name] !== undefined && !excludedByExample(name, example) && { example: example.parameters[name] }),
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
      example: example?.parameters?.expand ?? [names[0]],
    });
  }
  if (acceptsDryRun(route)) {
    out.push({
      name: DRY_RUN_PARAMETER,
      in: 'query',
      required: false,
      description: supportsDryRun(route)
        ? 'true: run the whole request in its transaction and roll it back. The answer is the status and body the real request would give, plus dry_run, journal_entries (the entries it would post) and events (the types it would emit); nothing is kept. Refused with an Idempotency-Key (400 dry_run_idempotency_key).'
        : 'Not supported here (400 dry_run_not_supported): this request reaches beyond its database transaction, so a rollback could not undo it.',
      schema: { type: 'boolean', default: false },
      example: false,
    });
  }
  if (acceptsIdempotencyKey(route)) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes the request safe to retry for 24 hours: a retry with the same key returns the original status and body with Idempotent-Replayed: true; the same key with different parameters is a 422; while the first request runs, a 409 with Retry-After; when the key cannot be recorded, a 503 with Retry-After and nothing run.',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
      // A key of its own per operation: tools that send every example (Dredd) would otherwise
      // reuse one key across operations and be refused with idempotency_key_reused.
      example: idempotencyKeyExample(route.id),
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
  if (acceptsDryRun(route)) codes.add(supportsDryRun(route) ? 'dry_run_idempotency_key' : 'dry_run_not_supported');
  // Reads never wait on a row lock; any write may meet one held by another request.
  if (route.method !== 'GET') codes.add('resource_locked');
  // While the entity is frozen for a migration cutover, writes of keys without migration:admin are refused.
  if (route.method !== 'GET') codes.add('entity_frozen');
  return [...codes];
}

function responses(route: Route, collector: SchemaCollector, example: OperationExample | undefined, errorExamples: Set<ErrorCode>): JsonSchema {
  const schemas: RouteSchemas = route;
  const success = String(route.successStatus ?? 200);
  const headers = {
    'Request-Id': { $ref: '#/components/headers/Request-Id' },
    ...RATE_LIMIT_HEADERS,
    ...(route.method === 'GET' && { ETag: { $ref: '#/components/headers/ETag' } }),
    ...(acceptsIdempotencyKey(route) && { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }),
  };
  const mediaType = (route.auth === 'none' && route.contentType) || 'application/json';
  const body = collector.convert(schemas.response, 'output');
  // A dry run answers the same body with the dry-run members added: its own schema, <Name>DryRun.
  const schema = supportsDryRun(route) ? { oneOf: [body, collector.dryRunVariant(body)] } : body;
  const out: JsonSchema = {
    [success]: {
      description: route.summary,
      headers,
      content: { [mediaType]: { schema, ...(example?.response !== undefined && { example: example.response }) } },
    },
  };
  if (route.method === 'GET') out['304'] = { description: 'Not modified: the If-None-Match ETag is current.', headers };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const shown = ERROR_EXAMPLE_PREFERENCE.find((code) => codes.includes(code)) ?? codes[0];
    errorExamples.add(shown);
    out[String(status)] = {
      description: `Error codes: ${codes.join(', ')}.`,
      headers: {
        'Request-Id': { $ref: '#/components/headers/Request-Id' },
        ...RATE_LIMIT_HEADERS,
        ...((status === 429 || status === 409 || status === 503) && { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
      },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: { [shown]: { $ref: `#/components/examples/${shown}` } },
          'x-error-codes': codes,
        },
      },
    };
  }
  return out;
}

/**
 * `examples`: by operation id, shown on each parameter, request and success response (the
 * committed recording unless given); error responses show the envelope of one of their codes.
 */
export function buildOpenApiDocument(routes: Route[], examples: OperationExamples = recordedExamples()): JsonSchema {
  const collector = new SchemaCollector();
  const errorExamples = new Set<ErrorCode>();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  // The API's operations are under /v1; the reference page (/docs) and its script are served
  // beside them but are no operation of the API.
  const operations = routes.filter((route) => route.path.startsWith('/v1/'));
  for (const route of [...operations].sort((a, b) => a.path.localeCompare(b.path))) {
    const scopes = route.auth === 'api_key' ? route.scopes : [];
    const anyScope = route.auth === 'api_key' && route.scopeMatch === 'any';
    const body = requestBody(route, collector, examples[route.id]);
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
      parameters: parameters(route, collector, examples[route.id]),
      ...(body && { requestBody: body }),
      responses: responses(route, collector, examples[route.id], errorExamples),
    };
  }
  const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Operations API',
      version: API_VERSION,
      description: [
        "Multi-tenant REST API for sales and purchase documents, catalog, ledger and migration tooling. Every request is scoped to the entity of its API key; another entity's ids are 404s.",
        INPUT_LIMITS,
        RATE_LIMITS,
        METHODS,
        dryRunSection(routes),
        REFERENCE_PAGE,
        errorsSection(codes),
      ].join('\n\n'),
    },
    // Where the document is served, the serving deployment replaces this (openapi-source.ts).
    servers: [LOCAL_SERVER],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((route) => route.tag))].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `API key: bo_<live|test>_ent_<entity_code>_<secret>. Scopes are <area>:read or <area>:write (write implies read) for the areas ${SCOPE_AREAS.join(', ')}, plus migration:admin.`,
        },
      },
      headers: HEADER_COMPONENTS,
      // The error envelope of each code an error response shows (by its name), as the server sends it.
      examples: Object.fromEntries([...errorExamples].sort().map((code) => [code, errorEnvelopeExample(code)])),
      schemas: {
        ...collector.describedComponents(),
        [EMPTY_BODY]: {
          title: EMPTY_BODY,
          type: 'object',
          description: 'A body with no parameters: the request needs none, and an empty object is accepted.',
          properties: { [IGNORED_BODY_MEMBER]: IGNORED_MEMBER_SCHEMA },
          additionalProperties: false,
        },
        Error: {
          title: 'Error',
          type: 'object',
          description: 'The error envelope of every failure. Members beyond these are documented with the code that adds them.',
          required: ['error', 'code', 'type', 'hint', 'doc_url', 'request_id'],
          properties: {
            error: {
              type: 'string',
              description:
                'Machine-readable key: equal to `code`, except the 401 family, whose codes (api_key_missing, api_key_revoked, ...) all carry `authentication_failed`. `type` is the broad class.',
            },
            code: { type: 'string', enum: codes, description: 'Precise machine-readable code; see x-error-catalog.' },
            type: { type: 'string', enum: [...ERROR_TYPES] },
            hint: { type: 'string', description: 'One-sentence English explanation.' },
            param: { type: 'string', description: 'The offending parameter, e.g. name, components[2].quantity_per_kit or expand[1].' },
            required: { type: 'string', description: 'The scope needed; only on insufficient_scope.' },
            allow: {
              type: 'array',
              items: { type: 'string', enum: ['DELETE', 'GET', 'PATCH', 'POST'] },
              maxItems: 4,
              description: 'The methods the path has, as its Allow header lists them; only on method_not_allowed.',
            },
            doc_url: { type: 'string', format: 'uri', description: "The code's entry in the Errors section of this deployment's reference page (/docs)." },
            request_id: { type: 'string', description: 'The Request-Id header of the failed request; quote it to support.' },
          },
          additionalProperties: true,
        },
      },
    },
    'x-error-catalog': Object.fromEntries(
      codes.map((code) => [code, { status: ERROR_STATUS[code], error: errorKey(code), type: ERROR_CATALOG[code].type, hint: ERROR_CATALOG[code].hint }]),
    ),
  };
}
