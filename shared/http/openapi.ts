/**
 * The OpenAPI 3.1 document, generated from the route table: nothing here is written by hand
 * per route. Schemas come from the routes' zod schemas (JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is); named schemas (`.meta({ id })`) become components; every error code comes from the
 * catalog.
 */
import * as z from 'zod';
import { SCOPE_AREAS } from '../auth/scopes';
import { API_VERSION } from '../version';
import { ERROR_CATALOG, ERROR_TYPES, errorKey, type ErrorCode } from '../errors';
import { errorAnchor } from '../public-url';
import { ERROR_STATUS } from './error-status';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { LOCAL_SERVER } from './openapi-source';
import { acceptsIdempotencyKey, type Route, type RouteSchemas } from './route';

type JsonSchema = Record<string, unknown>;

/** The input rules every route shares (docs/decisions.md, Input limits and card data). */
const INPUT_LIMITS = [
  '## Input limits',
  'A request body is at most 1 MiB (413 request_too_large), nested at most 32 levels deep; every string (body, query, path) is at most 10,000 characters and holds neither NUL nor unpaired surrogates (400 parameter_invalid naming where). The URL is at most 8,192 bytes (414 uri_too_long), the headers at most 16 KB (431 headers_too_large). Money and quantities are JSON numbers or plain decimal strings (no exponent). Ids are accepted in any case and returned in lower case.',
  'Card numbers are refused anywhere in a body, under any field name: a string holding a Luhn-valid 13 to 19 digit number (plain or in groups joined by spaces or dashes), or such a number as a JSON number, is a 400 raw_card_data_refused naming the field. Purely numeric references of that length therefore need a letter prefix; a valid GTIN under a gtin, upc, ean or barcode key is accepted. A routing and account number together in a bank-like field is a 400 raw_bank_data_refused.',
].join('\n\n');

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
        'Makes the request safe to retry for 24 hours: a retry with the same key returns the original status and body with Idempotent-Replayed: true; the same key with different parameters is a 422; while the first request runs, a 409 with Retry-After; when the key cannot be recorded, a 503 with Retry-After and nothing run.',
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
  // Reads never wait on a row lock; any write may meet one held by another request.
  if (route.method !== 'GET') codes.add('resource_locked');
  // While the entity is frozen for a migration cutover, writes of keys without migration:admin are refused.
  if (route.method !== 'GET') codes.add('entity_frozen');
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
  const mediaType = (route.auth === 'none' && route.contentType) || 'application/json';
  const out: JsonSchema = {
    [success]: { description: route.summary, headers, content: { [mediaType]: { schema: collector.convert(schemas.response, 'output') } } },
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
        ...((status === 429 || status === 409 || status === 503) && { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, 'x-error-codes': codes } },
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
  Coupons: 'Discount codes applied to orders, with their validity and redemption limits.',
  Deposits: 'Bank deposits that group received payments.',
  Events: 'The durable feed of everything that happened in the entity: the events webhooks deliver, kept for at least 90 days.',
  'General ledger': 'Chart of accounts, journal entries, recurring entries, trial balance and cash reports.',
  Inventory: 'Stock on hand by location, movements, transfers and the reorder report.',
  Kits: 'Kit products: components, availability and builds.',
  Locations: 'Warehouses and stores that hold stock.',
  Manufacturers: 'Makers of catalog products.',
  'Order approvals': 'Rules that hold orders for approval, and approving or rejecting them.',
  Orders: 'Quotes, sales orders, invoices, credit memos and returns: lines, totals, lifecycle, fulfilment and refunds.',
  Payments: 'Customer payments, their application to invoices, refunds, voids and ACH clearance.',
  'Payment terms': 'Net-days terms that vendor bills compute their due date from.',
  Platform: 'This description of the API and its reference page.',
  Pricing: 'Pricing levels and policies that set sell prices.',
  'Product options': 'Options and values that define product variants.',
  'Product vendors': 'Which vendors supply a product, at what cost and lead time.',
  Products: 'The catalog: products, their units and prices.',
  Purchasing: 'Purchase orders and their receipts into stock.',
  Migration:
    'Tools for moving an entity from another system: relinking migrated inventory transactions to their orders, import batches, and the cutover (freeze, database snapshot, unfreeze).',
  Reconciliation: 'Balances the ledger and the documents must agree on.',
  Reports:
    'Reports a controller closes the month with, each as of any date and beside the control account it ties to: AR aging, balance sheet, profit and loss, account activity, inventory valuation.',
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
      description: [
        "Multi-tenant REST API for sales and purchase documents, catalog, ledger and migration tooling. Every request is scoped to the entity of its API key; another entity's ids are 404s.",
        INPUT_LIMITS,
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
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
      schemas: {
        ...collector.describedComponents(),
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
