/** A 90-route table shaped like the full product, for resource-budget projections. */
import type { RouteSpec } from '../../infra/routes';

const AREAS = [
  'customers',
  'vendors',
  'products',
  'sales-orders',
  'invoices',
  'bills',
  'payments',
  'vendor-credits',
  'journal-entries',
  'accounts',
  'items',
  'tax-rates',
  'locations',
  'manufacturers',
  'webhook-endpoints',
  'events',
  'api-keys',
  'periods',
];

/** 18 resources × 5 CRUD routes = 90 API-key routes, plus the public OpenAPI route. */
export function syntheticRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = AREAS.flatMap((area) => {
    const id = area.replaceAll('-', '_');
    return [
      { key: `${area}/create`, id: `${id}.create`, method: 'POST', path: `/v1/${area}`, auth: 'api_key' },
      { key: `${area}/list`, id: `${id}.list`, method: 'GET', path: `/v1/${area}`, auth: 'api_key' },
      { key: `${area}/get`, id: `${id}.get`, method: 'GET', path: `/v1/${area}/{id}`, auth: 'api_key' },
      { key: `${area}/update`, id: `${id}.update`, method: 'PATCH', path: `/v1/${area}/{id}`, auth: 'api_key' },
      { key: `${area}/delete`, id: `${id}.delete`, method: 'DELETE', path: `/v1/${area}/{id}`, auth: 'api_key' },
    ] satisfies RouteSpec[];
  });
  routes.push({ key: 'openapi/get-openapi', id: 'platform.openapi', method: 'GET', path: '/v1/openapi.json', auth: 'none' });
  return routes;
}
