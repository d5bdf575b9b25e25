/**
 * The OpenAPI 3.1 document, generated from the route table: nothing here is written by hand
 * per route. Schemas come from the routes' zod schemas (JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is); named schemas (`.meta({ id })`) become components; every error code comes from the
 * catalog.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { SCOPE_AREAS } from '../auth/scopes';
import { API_VERSION } from '../version';
import { ERROR_CATALOG, ERROR_TYPES, errorKey, type ErrorCode } from '../errors';
import { errorAnchor } from '../public-url';
import { ERROR_STATUS } from './error-status';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { LOCAL_SERVER } from './openapi-source';
import { LOCAL_AUTH_FAILURE_LIMIT, LOCAL_RATE_LIMIT, type TokenBucket } from './rate-limits';
import { acceptsDryRun, DRY_RUN_PARAMETER, supportsDryRun } from './dry-run';
import { IGNORED_BODY_MEMBER } from './request-input';
import { acceptsIdempotencyKey, type Route, type RouteSchemas } from './route';

type JsonSchema = Record<string, unknown>;

/**
 * One operation's examples, recorded from real traffic (`npm run examples:record`): its path and
 * query parameters by name (an array parameter without its `[]`), its request body and its
 * success response body.
 */
export interface OperationExample {
  parameters?: Record<string, unknown>;
  request?: unknown;
  response?: unknown;
}
export type OperationExamples = Record<string, OperationExample>;

/** The committed examples (shared/http/openapi-examples.json), by operation id. */
export function recordedExamples(): OperationExamples {
  return JSON.parse(readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as OperationExamples;
}

/** The error each status's responses show as their example: the commonest code of that status. */
const ERROR_EXAMPLE_PREFERENCE: ErrorCode[] = [
  'parameter_invalid',
  'api_key_invalid',
  'insufficient_scope',
  'not_found',
  'rate_limit_exceeded',
  'internal_error',
];

/** The envelope the server sends for `code`, as the document's example of it. */
function errorEnvelopeExample(code: ErrorCode): JsonSchema {
  return {
    summary: code,
    value: {
      error: errorKey(code),
      code,
      type: ERROR_CATALOG[code].type,
      hint: ERROR_CATALOG[code].hint,
      // The placeholder server's page; each deployment's envelopes name its own.
      doc_url: `${LOCAL_SERVER.url}/docs#${errorAnchor(code)}`,
      request_id: '2f6c1d0e-8b4a-4f7e-9c53-7a1e0b9d4c21',
    },
  };
}

/** The input rules every route shares (docs/decisions.md, Input limits and card data). */
const INPUT_LIMITS = [
  '## Input limits',
  'A request body is at most 1 MiB (413 request_too_large), nested at most 32 levels deep; every string (body, query, path) is at most 10,000 characters and holds neither NUL nor unpaired surrogates (400 parameter_invalid naming where). The URL is at most 8,192 bytes (414 uri_too_long), the headers at most 16 KB (431 headers_too_large). Money and quantities are JSON numbers or plain decimal strings (no exponent). Ids are accepted in any case and returned in lower case.',
  'Card numbers are refused anywhere in a body, under any field name: a string holding a Luhn-valid 13 to 19 digit number (plain or in groups joined by spaces or dashes), or such a number as a JSON number, is a 400 raw_card_data_refused naming the field. Purely numeric references of that length therefore need a letter prefix; a valid GTIN under a gtin, upc, ean or barcode key is accepted. A routing and account number together in a bank-like field is a 400 raw_bank_data_refused.',
].join('\n\n');

const bucket = ({ ratePerSecond, burst }: TokenBucket) => `bursts of ${burst}, ${ratePerSecond} requests per second`;

/**
 * The rate limits of every stage and the headers that tell them (docs/decisions.md, Rate-limit
 * headers). The deployed stages' figures are their stage config's (infra/config/stages.ts); a test
 * holds the two together.
 */
const RATE_LIMITS = [
  '## Rate limits',
  'Requests are limited per API key as a token bucket: a burst, refilled at a steady rate (the routes without authentication: per client address locally; by the limit of all keys together and the firewall when deployed). Past it, a request is answered 429 rate_limit_exceeded with Retry-After, the seconds to wait. Failed authentications are limited per client address on top: once an address has spent that budget, a request with a key that fails authentication is answered 429 instead of 401, while a valid key from the same address is still served.',
  [
    '| stage | per API key | failed authentications |',
    '| --- | --- | --- |',
    `| local (\`npm start\`) | ${bucket(LOCAL_RATE_LIMIT)} | ${bucket(LOCAL_AUTH_FAILURE_LIMIT)} per client address |`,
    '| sandbox | standard tier (the default): bursts of 10, 5 requests per second; high tier: bursts of 30, 15 requests per second; all keys together: bursts of 50, 25 requests per second | the firewall blocks a client address past 1,500 requests (of any kind) in 5 minutes |',
    '| prod | standard tier (the default): bursts of 50, 25 requests per second; high tier: bursts of 200, 100 requests per second; all keys together: bursts of 400, 200 requests per second | the firewall blocks a client address past 6,000 requests (of any kind) in 5 minutes |',
  ].join('\n'),
  'The local stage sends RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every response to a request it counted (all but the answers given before counting: 404 route_not_found, 405, 414, 431 and a 400 on a malformed path), and on its 429 a Retry-After equal to RateLimit-Reset. The deployed stages throttle in API Gateway, which sends no RateLimit headers: their 429 carries Retry-After: 1.',
].join('\n\n');

/** How a wrong method is answered (no operation declares it: it is the answer of no operation). */
const METHODS =
  '## Methods\n\nA method a path does not have is answered 405 method_not_allowed, with an Allow header and an `allow` member in the envelope listing the methods the path has. A path that does not exist is a 404 route_not_found.';
/** Where the document is shown as a page: served beside the API, not one of its operations. */
const REFERENCE_PAGE =
  "## Reference page\n\nThis document is rendered as a page at `/docs` of the same deployment (outside `/v1`), with the Errors section below that every error envelope's `doc_url` points at.";

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

function isOptional(schema: z.ZodType): boolean {
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

/** A uuid, as clients make their Idempotency-Keys, stable per operation. */
function idempotencyKeyExample(operationId: string): string {
  const hex = createHash('sha256').update(`idempotency-key:${operationId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function parameters(route: Route, collector: SchemaCollector, example: OperationExample | undefined): JsonSchema[] {
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
        ...(example?.parameters?.[name] !== undefined && { example: example.parameters[name] }),
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

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

/** A count or a number of seconds, as the headers carry them. */
const HEADER_INTEGER = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 };
const SENT_LOCALLY =
  'Sent by the local stage (`npm start`) on every response to a request it counted; the deployed stages throttle in API Gateway, which does not send it (see Rate limits in the description of the API).';

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
 * What each named response schema is, where its zod schema does not say (a description in
 * `.meta()` wins). The reference page shows it above the schema's fields.
 */
const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  Account: 'A customer account: who orders, is invoiced and pays.',
  AccountingPeriod: 'A fiscal period of the ledger, with who requested, approved and performed its close or reopening.',
  AccountPaymentMethod: "A card or bank account saved on a customer account (only the processor's token and display details are kept).",
  ApiKey: 'An API key of the entity; its secret is never shown again after creation.',
  ApiKeyWithSecret: 'An API key as created or rolled: the only time its secret is shown.',
  CashBalance: 'The balance of each bank account of the ledger as of a date, and their total.',
  Coupon: 'A discount code applied to orders, with its validity window and redemption limits.',
  Deposit: 'A bank deposit grouping received payments, posted to the ledger.',
  DepositPreview: 'What a deposit of the given payments would total, without making it.',
  GlAccount: 'An account of the chart of accounts.',
  InventoryBalance: 'Stock of a product at a location: on hand, committed, available, on order, value and demand.',
  InventoryTransaction: 'One stock movement of a product at a location, with its cost.',
  InventoryTransfer: 'A move of stock between two locations: the paired transactions.',
  JournalEntry: 'A journal entry of the ledger, its lines balanced (debits equal credits).',
  JournalLine: 'One debit or credit line of a journal entry.',
  Kit: 'A kit product with its components.',
  KitAvailability: 'How many kits can be built at a location from the components on hand.',
  KitBuild: 'A build (or unbuild) of kits: components consumed, kits produced.',
  KitComponent: 'A component of a kit and the quantity one kit needs.',
  Location: 'A warehouse or store that holds stock.',
  Manufacturer: 'The maker of catalog products.',
  MultiInvoicePaymentResult: 'The payments made by applying one receipt across several invoices.',
  Order: 'A sales or purchase document (quote, sales order, invoice, credit memo, return, purchase order) with its lines, totals and statuses.',
  OrderAdjustment: 'A discount or fee applied to an order as a whole.',
  OrderAdjustmentResult: "An adjustment as applied, with the order's new totals.",
  OrderApprovalRule: 'A rule that holds matching orders for approval.',
  OrderFulfillment: 'A shipment of order lines from a location: the stock it moved and the cost it posted.',
  OrderLineItem: 'A line of an order: product, quantity, price, discounts, tax and what was fulfilled or returned.',
  OrderReturnReceipt: 'Returned goods received back into a location, with the stock and cost they moved.',
  Payment: 'A customer payment and how it is applied to invoices.',
  PricingLevel: 'A named price level (wholesale, retail) that pricing policies attach to.',
  PricingPolicy: 'A price rule for a product: a level, an account or a quantity break, and the price it gives.',
  Product: 'A catalog product.',
  ProductOption: 'An option of a product (size, colour) and its values.',
  ProductVendor: 'A vendor that supplies a product, with its cost, lead time and order quantities.',
  PurchaseReceipt: 'Goods of a purchase order received into a location, with the stock and cost they moved.',
  RecurringJournalTemplate: 'A journal entry posted on a schedule.',
  RecurringJournalTemplateLine: 'A line of a recurring journal entry.',
  Refund: 'A refund of a payment, posted to the ledger.',
  ReorderReport: 'The products to reorder, from stock, demand and lead times.',
  ReorderReportRow: 'One product of the reorder report: its stock, demand and the suggested quantity.',
  SetupIntent: 'The start of saving a payment method: what the client needs to collect it with the processor.',
  Tag: 'A label attached to records for filtering.',
  TaxRate: 'A sales tax rate applied to order lines.',
  TestHelperSetupIntent: 'A setup intent confirmed through the test helper (test keys only).',
  TrialBalance: 'Debit and credit balances of every account as of a date.',
  UnitOfMeasure: 'A unit products are stocked and sold in, and its conversion to the base unit.',
  User: 'A person of the entity that API keys act for.',
  Vendor: 'A supplier that purchase orders are placed with.',
  VendorBill: 'A bill from a vendor (an accounts-payable invoice): its totals, balance, approval trail and posting.',
  VendorBillLine: 'A line of a vendor bill: an expense (GL account and amount) or an item (product, quantity and unit cost).',
};

/**
 * One line per tag: the heading text of its section on the reference page. A tag a route uses
 * without an entry here fails the document's lint (redocly.yaml: tag-description).
 */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'Account payment methods': 'Cards and bank accounts saved for a customer account through a setup intent, and the default among them.',
  Accounts: 'Customer accounts: who orders, is invoiced and pays.',
  'Accounting periods': 'Fiscal periods of the ledger and their closing and reopening.',
  'API keys': 'Keys of the entity: create, list, restrict scopes, roll and revoke.',
  Batch: 'Up to 100 writes in one request and one transaction, each exactly the route it names.',
  Coupons: 'Discount codes applied to orders, with their validity and redemption limits.',
  Deposits: 'Bank deposits that group received payments.',
  Events: 'The durable feed of everything that happened in the entity: the events webhooks deliver, kept for at least 90 days.',
  'General ledger': 'Chart of accounts, journal entries and recurring entries.',
  Inventory: 'Stock on hand by location, movements, transfers and the reorder report.',
  Kits: 'Kit products: components, availability and builds.',
  Locations: 'Warehouses and stores that hold stock.',
  Manufacturers: 'Makers of catalog products.',
  'Order approvals': 'Rules that hold orders for approval, and approving or rejecting them.',
  Orders: 'Quotes, sales orders, invoices, credit memos and returns: lines, totals, lifecycle, fulfilment and refunds.',
  Payments: 'Customer payments, their application to invoices, refunds, voids and ACH clearance.',
  'Payment terms': 'Net-days terms that vendor bills compute their due date from.',
  Platform: 'This description of the API.',
  Pricing: 'Pricing levels and policies that set sell prices.',
  'Product options': 'Options and values that define product variants.',
  'Product vendors': 'Which vendors supply a product, at what cost and lead time.',
  Products: 'The catalog: products, their units and prices.',
  Purchasing: 'Purchase orders and their receipts into stock.',
  Migration:
    'Tools for moving an entity from another system: relinking migrated inventory transactions to their orders, import batches, and the cutover (freeze, database snapshot, unfreeze).',
  Reports:
    'Reports a controller closes the month with and a migration team signs the cutover with, each as of a date or over a range and beside the control account it ties to: AR aging, AP aging, balance sheet, profit and loss, account activity, trial balance, cash balance, inventory valuation.',
  Tags: 'Labels attached to records for filtering.',
  'Tax rates': 'Sales tax rates applied to order lines.',
  'Units of measure': 'Units products are stocked and sold in, and their conversions.',
  'Vendor bills': 'Accounts payable: bills from vendors, their lines, approval with segregation of duties, posting to the ledger and voiding.',
  'Vendor credits':
    'Accounts payable: credits from vendors (manual, price adjustments, returns), amounts as 4-decimal strings, applied to bills through AP payments, voided or expired.',
  'AP payments': "Accounts payable: paying one vendor's bills from a bank account, vendor credits applied first; voiding restores the balances.",
  Vendors: 'Suppliers purchase orders are placed with.',
  'Webhook endpoints':
    'URLs that receive events as signed HTTP POSTs (Standard Webhooks), and their signing secrets. Delivery is at least once, in no guaranteed order: order by created_at, de-duplicate on the event id, and catch up through the events feed.',
};

/**
 * The Errors section of the reference page, generated from the catalog: one row per code, its id
 * the anchor every error envelope's `doc_url` points at.
 */
function errorsSection(codes: ErrorCode[]): string {
  const escape = (text: string) =>
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/`([^`]+)`/g, '<code>$1</code>');
  const rows = [...codes]
    .sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b))
    .map((code) => {
      const { type, hint } = ERROR_CATALOG[code];
      // <wbr>: a long code breaks at its underscores only.
      const breakable = (text: string) => text.replace(/_/g, '_<wbr>');
      return `<tr id="${errorAnchor(code)}"><td><code>${breakable(code)}</code></td><td>${ERROR_STATUS[code]}</td><td><code>${breakable(type)}</code></td><td>${escape(hint)}</td></tr>`;
    });
  return [
    '# Errors',
    'Every failure answers with the error envelope (the `Error` schema): a precise `code`, its broad `type`, a `hint`, the offending `param` where there is one, the `request_id`, and `doc_url`, which links to the code below.',
    `<table class="error-catalog"><thead><tr><th>code</th><th>status</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n\n');
}

/** The dry run, and the writes that cannot take one (their work reaches beyond the transaction). */
function dryRunSection(routes: Route[]): string {
  const refused = routes.filter((route) => acceptsDryRun(route) && !supportsDryRun(route)).map((route) => `\`${route.method} ${route.path}\``);
  return [
    '# Dry run',
    'Every POST, PATCH and DELETE takes `dry_run=true`: the whole request runs (authentication, scopes, validation, every rule, numbering, ledger postings, stock moves) in its transaction, which is then rolled back. The answer is the status and body the real request would give, with three members added at the top level: `dry_run: true`, `journal_entries` (the entries it would post, as GET /v1/journal-entries/{id} shows them) and `events` (the types of the events it would emit). Nothing is kept: no record, no document or entry number, no event, no idempotency record. Bad input gets the error the real request would get. An Idempotency-Key is refused (400 dry_run_idempotency_key), so a retry can never mistake a dry run for the real request.',
    `These writes reach beyond their transaction (the card processor, the snapshot workflow) and answer a dry run with 400 dry_run_not_supported: ${refused.join(', ')}.`,
  ].join('\n\n');
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
      headers: {
        'Request-Id': { description: 'Unique id of this request; quote it to support.', schema: { type: 'string' } },
        ETag: { description: 'Validator of this representation, for If-None-Match and If-Match.', schema: { type: 'string' } },
        'Idempotent-Replayed': {
          description: 'true when this response is a replay of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        'Retry-After': {
          description: 'Seconds to wait before retrying. On a 429 of the local stage it equals RateLimit-Reset; a deployed stage sends 1.',
          schema: HEADER_INTEGER,
        },
        'RateLimit-Limit': {
          description: `The requests the limit allows in a burst: the API key's, or on a 429 for failed authentications, the client address's budget of them. ${SENT_LOCALLY}`,
          schema: HEADER_INTEGER,
        },
        'RateLimit-Remaining': { description: `The requests left of RateLimit-Limit now. ${SENT_LOCALLY}`, schema: HEADER_INTEGER },
        'RateLimit-Reset': {
          description: `Seconds until one more request is available (0 when the whole burst is). ${SENT_LOCALLY}`,
          schema: HEADER_INTEGER,
        },
      },
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
