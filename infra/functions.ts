/**
 * Which Lambda bundles the application has, and where a function's code comes from.
 *
 * A bundle name is the handler module's path under functions/ without `.ts`; the same name picks
 * the folder bundleFunctions() writes and the asset the function deploys.
 */
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readFileSync } from 'node:fs';
import { REDOC_SCRIPT_FILE, redocScriptInPackage } from '../functions/docs/redoc-script';
import { OPENAPI_FILE, openApiText } from '../shared/http/openapi-source';
import { servedTextFiles } from '../shared/http/served-text';
import type { BundleEntry } from './bundle';
import type { RouteSpec } from './routes';

/** Bundles that are not routes. */
export const PLATFORM_BUNDLES = {
  authorizer: 'authorizer/authorizer',
  outboxSweeper: 'platform/sweep-outbox',
  recurringJournalRunner: 'platform/run-recurring',
  vendorCreditExpiry: 'platform/expire-vendor-credits',
  quoteExpiry: 'platform/expire-quotes',
  migrateDatabase: 'platform/migrate-database',
  cutoverSnapshotTask: 'platform/cutover-snapshot-task',
  /** The operator commands on AWS (`npm run cli -- --stage <stage> ...`); never routed by API Gateway. */
  admin: 'platform/admin',
  webhookDispatcher: 'platform/dispatch-webhooks',
  webhookRetry: 'platform/retry-webhooks',
  /** Per-key throttling: API Gateway keys for new API keys (infra/stacks/api-stack.ts). */
  usageKeySync: 'platform/sync-usage-keys',
} as const;

/**
 * Route functions that call the card processor's API (Stripe) and so need internet egress; every
 * other route function stays in the isolated subnets. test/infra/webhooks.test.ts checks the list
 * against the route modules that select a processor.
 */
export const PROCESSOR_ROUTE_KEYS: ReadonlySet<string> = new Set([
  'accounts/create-setup-intent',
  'accounts/attach-payment-method',
  'accounts/delete-payment-method',
]);

/** Route functions that start cutover snapshot executions (states:StartExecution on that state machine only). */
export const CUTOVER_SNAPSHOT_ROUTE_KEYS: ReadonlySet<string> = new Set(['migration/create-cutover-snapshot']);

/** Where the migrate function finds the SQL files inside its asset (and MIGRATIONS_DIR at runtime). */
export const MIGRATIONS_ASSET_DIR = 'migrations';
export const MIGRATIONS_SOURCE_DIR = 'migrations';

/** The route that serves the OpenAPI document reads it from this file next to its code. */
const OPENAPI_ROUTE_ID = 'platform.openapi';
/** The route that serves the reference page's renderer reads it from a file next to its code. */
const DOCS_SCRIPT_ROUTE_ID = 'platform.docs_script';

/**
 * Every entry point of the application, for the one-pass bundler. The OpenAPI route gets the
 * generated document as a file beside its code, so its bundle does not carry every route; the
 * docs script route gets Redoc's standalone bundle (about 1.1 MB) the same way, so its code stays
 * a few KB (functions/docs/redoc-script.ts).
 */
export function bundleEntries(routes: readonly RouteSpec[], openApiDocument?: unknown): BundleEntry[] {
  return [
    ...routes.map((route): BundleEntry => {
      // A public route's function is built on its serving part (functions/<key>.serving.ts), with
      // the input reader a request with input loads split off (infra/bundle.ts: splitLazyImports).
      const entry: BundleEntry =
        route.auth === 'none'
          ? { name: route.key, entry: `functions/${route.key}.serving.ts`, splitLazyImports: true }
          : { name: route.key, entry: `functions/${route.key}.ts` };
      if (route.id === OPENAPI_ROUTE_ID && openApiDocument !== undefined) entry.files = servedTextFiles(OPENAPI_FILE, openApiText(openApiDocument));
      if (route.id === DOCS_SCRIPT_ROUTE_ID) entry.files = servedTextFiles(REDOC_SCRIPT_FILE, readFileSync(redocScriptInPackage(), 'utf8'));
      return entry;
    }),
    // Every platform bundle from its own file; the migration function also ships the migrations.
    ...Object.values(PLATFORM_BUNDLES)
      .filter((name) => name !== PLATFORM_BUNDLES.migrateDatabase)
      .map((name) => ({ name, entry: `functions/${name}.ts` })),
    {
      name: PLATFORM_BUNDLES.migrateDatabase,
      entry: `functions/${PLATFORM_BUNDLES.migrateDatabase}.ts`,
      copyDirs: [{ from: MIGRATIONS_SOURCE_DIR, to: MIGRATIONS_ASSET_DIR }],
    },
  ];
}

/** Supplies each function's deployment package by bundle name. */
export interface FunctionCodeSource {
  code(bundleName: string): lambda.Code;
}

/** The real thing: folders written by bundleFunctions(), each zipped as one asset. */
export function bundledCode(dirs: Readonly<Record<string, string>>): FunctionCodeSource {
  return {
    code(bundleName) {
      const dir = dirs[bundleName];
      if (!dir) throw new Error(`no bundle named ${bundleName}; was it passed to bundleFunctions()?`);
      return lambda.Code.fromAsset(dir);
    },
  };
}

/**
 * Inline stand-in code for tests that only inspect templates: synthesis without a bundling pass
 * or asset staging. It can never be mistaken for a working deployment: it fails every invocation.
 */
export function inlineTestCode(): FunctionCodeSource {
  return {
    code(bundleName) {
      return lambda.Code.fromInline(`exports.handler = async () => { throw new Error(${JSON.stringify(`test stand-in for ${bundleName}`)}); };`);
    },
  };
}
