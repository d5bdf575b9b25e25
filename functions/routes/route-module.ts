/**
 * What a route table entry is: a handler module exporting its route definition and its handler.
 * Apart from routes.ts so the per-capability tables can name it without importing routes.ts back.
 */
import type { Route } from '../../shared/http/route';

export interface RouteModule {
  route: Route;
  handler: unknown;
}
