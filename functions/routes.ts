/**
 * The route table: every endpoint of the API, once. Keys are the handler modules' paths under
 * functions/ (a test checks that each key is the module's real path): CDK bundles each key as
 * one Lambda function, the local gateway dispatches by the routes, and the OpenAPI document is
 * generated from them. Each capability lists its entries in routes/<capability>.ts, with static
 * imports so the bundler sees every handler.
 */
import type { Route } from '../shared/http/route';
import { TENANT_ROUTES } from './routes/tenants';
import { DOCS_ROUTES } from './routes/docs';
import { LEDGER_ROUTES } from './routes/ledger';
import { PARTY_ROUTES } from './routes/parties';
import { CATALOG_ROUTES } from './routes/catalog';
import { INVENTORY_ROUTES } from './routes/inventory';
import { ORDER_ROUTES } from './routes/orders';
import { PAYMENT_ROUTES } from './routes/payments';
import { PAYABLE_ROUTES } from './routes/payables';
import { WEBHOOK_ROUTES } from './routes/webhooks';
import { MIGRATION_ROUTES } from './routes/migration';
import { BATCH_ROUTES } from './routes/batch';
import type { RouteModule } from './routes/route-module';

export type { RouteModule } from './routes/route-module';

/** `satisfies`, not a type annotation (here and in each group): the literal type keeps each route's method, path and schemas for the typed test client. */
export const ROUTE_MODULES = {
  ...TENANT_ROUTES,
  ...DOCS_ROUTES,
  ...LEDGER_ROUTES,
  ...PARTY_ROUTES,
  ...CATALOG_ROUTES,
  ...INVENTORY_ROUTES,
  ...ORDER_ROUTES,
  ...PAYMENT_ROUTES,
  ...PAYABLE_ROUTES,
  ...WEBHOOK_ROUTES,
  ...MIGRATION_ROUTES,
  ...BATCH_ROUTES,
} satisfies Record<string, RouteModule>;

export const ROUTES: Route[] = Object.values(ROUTE_MODULES).map((module) => module.route);
