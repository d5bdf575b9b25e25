/**
 * The import rules of docs/architecture.md, checked in CI (`npm run lint`).
 *
 * Dependencies run one way: functions/ (routes) → capabilities → platform. A capability may call
 * another only in the direction CAPABILITIES allows, so the capabilities form no cycle either.
 */

/** Each capability under shared/, with the capabilities it may import. */
const CAPABILITIES = {
  ledger: [],
  parties: [],
  catalog: ['parties'],
  tenants: ['ledger'], // provisioning seeds the chart of accounts
  inventory: ['catalog', 'ledger', 'parties'],
  orders: ['catalog', 'inventory', 'ledger', 'parties', 'tenants'],
  payments: ['orders', 'ledger', 'parties'],
  payables: ['catalog', 'inventory', 'ledger', 'parties', 'orders', 'tenants'],
  webhooks: ['tenants'],
  // Rolling back an import batch and relinking migrated stock call every owner of the records they touch.
  migration: ['catalog', 'inventory', 'ledger', 'orders', 'parties', 'payables', 'payments'],
};

/**
 * The tables each capability owns. Only the owner's SQL names its tables; another capability changes
 * them through the owner's functions and reads them through the owner's named queries.
 * test/unit/table-ownership.test.ts checks every capability's SQL against this map, and that every
 * table of migrations/ is listed here or in PLATFORM_TABLES exactly once.
 */
const OWNED_TABLES = {
  ledger: ['accounting_periods', 'gl_accounts', 'gl_daily_balances', 'journal_entries', 'journal_lines', 'recurring_journal_templates'],
  parties: ['accounts', 'vendors'],
  catalog: [
    'products',
    'kit_components',
    'manufacturers',
    'units_of_measure',
    'product_options',
    'product_vendors',
    'pricing_levels',
    'pricing_policies',
    'tags',
    'tag_assignments',
  ],
  tenants: ['entities', 'users', 'api_keys'],
  inventory: ['locations', 'inventory_balances', 'inventory_cost_layers', 'inventory_layer_draws', 'inventory_transactions'],
  orders: [
    'orders',
    'order_lines',
    'order_adjustments',
    'line_adjustments',
    'order_revisions',
    'order_approval_rules',
    'coupons',
    'coupon_redemptions',
    'tax_rates',
    'credit_memo_moves',
  ],
  payments: [
    'payments',
    'payment_applications',
    'payment_application_moves',
    'refunds',
    'refund_lines',
    'deposits',
    'deposit_lines',
    'account_payment_methods',
    'account_processor_customers',
    'sandbox_setup_intents',
  ],
  payables: [
    'vendor_bills',
    'vendor_bill_lines',
    'vendor_credits',
    'ap_payments',
    'ap_payment_applications',
    'payment_terms',
    'vendor_returns',
    'vendor_return_lines',
  ],
  webhooks: ['webhook_endpoints', 'webhook_deliveries', 'webhook_delivery_attempts'],
  migration: ['migration_batches', 'cutover_log', 'db_snapshots', 'entity_freezes'],
};

/** The platform's tables (shared/db: number sequences; shared/events: the outbox), which any capability may use. */
const PLATFORM_TABLES = ['number_sequences', 'event_outbox'];

/** The platform under every capability: shared/<folder>/ and the files directly in shared/. */
const PLATFORM_FOLDERS = ['db', 'http', 'events', 'auth', 'schemas'];

const names = Object.keys(CAPABILITIES);
const folder = (list) => `^shared/(${list.join('|')})/`;

const capabilityDirection = names
  .map((name) => ({ name, forbidden: names.filter((other) => other !== name && !CAPABILITIES[name].includes(other)) }))
  .filter(({ forbidden }) => forbidden.length > 0)
  .map(({ name, forbidden }) => ({
    name: `capability-direction-${name}`,
    comment: `${name} may import only ${CAPABILITIES[name].join(', ') || 'the platform'} among the capabilities (.dependency-cruiser.cjs: CAPABILITIES).`,
    severity: 'error',
    from: { path: folder([name]) },
    to: { path: folder(forbidden) },
  }));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Modules import each other in one direction only. The one cycle allowed goes through a dynamic import: POST /v1/batch (functions/batch/run-batch.ts) loads the route table it is part of when its first request comes.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'platform-takes-only-types-from-event-contracts',
      comment: 'events/ holds the payload contracts, built from capability schemas; the platform may take its types, never its code.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^events/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-knows-no-entry-points',
      comment: 'Nothing under shared/ or events/ imports a route, the local server, infrastructure, tests or benchmarks.',
      severity: 'error',
      from: { path: '^(shared|events)/' },
      to: { path: '^(functions|local|infra|test|bench)/' },
    },
    {
      name: 'only-the-edge-knows-http',
      comment: 'shared/http is the edge: only routes, the local server, infrastructure and the stack itself import it.',
      severity: 'error',
      from: { path: '^(shared|events)/', pathNot: '^shared/http/' },
      to: { path: '^shared/http/' },
    },
    {
      name: 'platform-knows-no-capability',
      comment: 'The platform (db, http, events, auth, schemas, errors, money, ids, log) never imports a capability.',
      severity: 'error',
      from: { path: [`^shared/(${PLATFORM_FOLDERS.join('|')})/`, '^shared/[^/]+\\.ts$'] },
      to: { path: folder(names) },
    },
    ...capabilityDirection,
    {
      name: 'routes-do-not-import-routes',
      comment: 'A route module imports capabilities and the platform, never another route folder (helpers of its own folder are fine).',
      severity: 'error',
      // functions/routes/ is the route table split per capability, not a route folder.
      from: { path: '^functions/([^/]+)/', pathNot: '^functions/routes/' },
      to: { path: '^functions/', pathNot: ['^functions/$1/', '^functions/routes\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Generated output (bench/results holds the benchmarks' bundles): git-ignored, and large enough to exhaust the cruiser's memory.
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|bench/results)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

// dependency-cruiser's configuration schema refuses unknown keys, so the maps the ownership test
// reads are attached where the schema does not look (non-enumerable).
Object.defineProperties(module.exports, {
  CAPABILITIES: { value: CAPABILITIES },
  OWNED_TABLES: { value: OWNED_TABLES },
  PLATFORM_TABLES: { value: PLATFORM_TABLES },
});
