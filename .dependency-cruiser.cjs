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
  catalog: [],
  tenants: ['ledger'], // provisioning seeds the chart of accounts
  inventory: ['catalog', 'ledger'],
  orders: ['catalog', 'inventory', 'ledger', 'parties'],
  payments: ['orders', 'ledger', 'parties'],
  payables: ['catalog', 'inventory', 'ledger', 'parties', 'orders'],
  webhooks: [],
  migration: [], // import batches and relink read and remove other capabilities' rows with SQL of their own
};

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
      comment: 'Modules import each other in one direction only.',
      severity: 'error',
      from: {},
      to: { circular: true },
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
