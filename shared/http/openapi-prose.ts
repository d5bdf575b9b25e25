/**
 * The document's words: the API's description (input limits, rate limits, methods, dry run, the
 * reference page, the error catalog), and the descriptions of its tags and named schemas.
 */
import { ERROR_CATALOG, type ErrorCode } from '../errors';
import { errorAnchor } from '../public-url';
import { ERROR_STATUS } from './error-status';
import { LOCAL_AUTH_FAILURE_LIMIT, LOCAL_RATE_LIMIT, type TokenBucket } from './rate-limits';
import { acceptsDryRun, supportsDryRun } from './dry-run';
import type { Route } from './route';

/** The input rules every route shares (docs/decisions.md, Input limits and card data). */
export const INPUT_LIMITS = [
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
export const RATE_LIMITS = [
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
export const METHODS =
  '## Methods\n\nA method a path does not have is answered 405 method_not_allowed, with an Allow header and an `allow` member in the envelope listing the methods the path has. A path that does not exist is a 404 route_not_found.';
/** Where the document is shown as a page: served beside the API, not one of its operations. */
export const REFERENCE_PAGE =
  "## Reference page\n\nThis document is rendered as a page at `/docs` of the same deployment (outside `/v1`), with the Errors section below that every error envelope's `doc_url` points at.";

/**
 * What each named response schema is, where its zod schema does not say (a description in
 * `.meta()` wins). The reference page shows it above the schema's fields.
 */
export const COMPONENT_DESCRIPTIONS: Record<string, string> = {
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
export const TAG_DESCRIPTIONS: Record<string, string> = {
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
export function errorsSection(codes: ErrorCode[]): string {
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
export function dryRunSection(routes: Route[]): string {
  const refused = routes.filter((route) => acceptsDryRun(route) && !supportsDryRun(route)).map((route) => `\`${route.method} ${route.path}\``);
  return [
    '# Dry run',
    'Every POST, PATCH and DELETE takes `dry_run=true`: the whole request runs (authentication, scopes, validation, every rule, numbering, ledger postings, stock moves) in its transaction, which is then rolled back. The answer is the status and body the real request would give, with three members added at the top level: `dry_run: true`, `journal_entries` (the entries it would post, as GET /v1/journal-entries/{id} shows them) and `events` (the types of the events it would emit). Nothing is kept: no record, no document or entry number, no event, no idempotency record. Bad input gets the error the real request would get. An Idempotency-Key is refused (400 dry_run_idempotency_key), so a retry can never mistake a dry run for the real request.',
    `These writes reach beyond their transaction (the card processor, the snapshot workflow) and answer a dry run with 400 dry_run_not_supported: ${refused.join(', ')}.`,
  ].join('\n\n');
}
