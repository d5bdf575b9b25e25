/**
 * knip: unused files, exports, dependencies and devDependencies (`npm run lint`, CI).
 *
 * The entries are the real ways in. A `!` suffix marks production code, so
 * `npx knip --production` lists what only tests and benchmarks use.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // Every route module and platform function is a Lambda entry (infra/functions.ts bundles each
    // one); expand.ts files are helpers of their route folder, imported like any other module.
    'functions/**/*.ts!',
    '!functions/*/expand.ts!',
    // The package.json scripts: npm start, npm run cli, npm run recurring.
    'local/{server,cli,run-recurring}.ts!',
    // cdk.json's app (`npx tsx infra/app.ts`).
    'infra/app.ts!',
    // Stand-ins esbuild swaps in by path (infra/bundle.ts).
    'infra/bundle-shims/*.ts!',
    // Benchmarks: each script runs on its own (bench/run-all.ts spawns them, bundle-size spawns
    // cold-start-child.mjs and bundles the empty handler); lib.ts, seed.ts and stand-ins.ts are their helpers.
    'bench/*.{ts,mjs}',
    '!bench/{lib,seed,stand-ins}.ts',
    'bench/fixtures/*.ts',
    // Bundled by test/infra/bundle-shims.test.ts by path. Test files, test/support/global-setup.ts
    // and vitest.config.ts come from knip's vitest plugin.
    'test/infra/fixtures/*.ts',
    // Compile-time checks of the typed test client: nothing imports or runs this file, but
    // `tsc --noEmit` (tsconfig.json includes test/) reads its `@ts-expect-error` lines, and each
    // must stay an error. An entry, so knip counts it as used rather than as a forgotten file.
    'test/support/client-typecheck.ts',
  ],
  project: ['{functions,shared,events,local,infra,bench,test,types,client}/**/*.{ts,mjs}!'],
  // Never imported: its standalone bundle is served as a file, resolved by path in
  // functions/docs/redoc-script.ts and copied beside the docs function by infra/functions.ts.
  // @aws-sdk/util-dynamodb: imported by Powertools idempotency's DynamoDBPersistenceLayer, which does not declare it.
  // @stoplight/spectral-cli: run by path from client/spectral-lint.ts; @stoplight/spectral-owasp-ruleset:
  // the ruleset .spectral.yaml extends, loaded by Spectral.
  ignoreDependencies: ['redoc', '@aws-sdk/util-dynamodb', '@stoplight/spectral-cli', '@stoplight/spectral-owasp-ruleset'],
  // The machine's: bench/framework-overhead.ts --pin sets CPU affinity with util-linux's taskset (and
  // says so when it is missing).
  ignoreBinaries: ['taskset'],
};

export default config;
