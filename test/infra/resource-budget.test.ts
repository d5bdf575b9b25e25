/**
 * CloudFormation allows 500 resources a template. The real app's stages keep every template
 * (stacks and nested stacks) at 300 or fewer, and a route table twice today's (a copy of every
 * real route, in the same area) stays under 450: the API grows by area stacks, not in one stack.
 */
import { describe, expect, it } from 'vitest';
import { arnPathOf } from '../../infra/constructs/api-area';
import { apiAreaOf, constructIdOf, type RouteSpec, routesByArea, validateRouteSpecs } from '../../infra/routes';
import { realRoutes, realStage, synthStage } from './synth';

/** Every template's budget today, and with the route table doubled. */
const TODAY_LIMIT = 300;
const DOUBLED_LIMIT = 450;

/**
 * A copy of every route in its own area, one path segment deeper (`/v1/orders/{id}` →
 * `/v1/orders/copy/{id}`): as many new functions, methods and path resources as the table has.
 */
function doubledRoutes(routes: readonly RouteSpec[]): RouteSpec[] {
  const copies = routes.map((route): RouteSpec => {
    const { rootPath } = apiAreaOf(route.path);
    const [folder, name] = route.key.split('/');
    return { ...route, key: `${folder}/${name}-copy`, id: `${route.id}_copy`, path: `${rootPath}/copy${route.path.slice(rootPath.length)}` };
  });
  return [...routes, ...copies];
}

const largest = (counts: Record<string, number>) => Object.entries(counts).reduce((a, b) => (b[1] > a[1] ? b : a));

describe('route table checks', () => {
  it('reject duplicate endpoints, ids, conflicting parameters and non-v1 paths', () => {
    const base: RouteSpec = { key: 'a/get', id: 'a.get', method: 'GET', path: '/v1/a/{id}', auth: 'api_key' };
    expect(() => validateRouteSpecs([base, { ...base, key: 'a/get-2', id: 'a.get2' }])).toThrow(/duplicate endpoint/);
    expect(() => validateRouteSpecs([base, { ...base, key: 'a/patch', method: 'PATCH' }])).toThrow(/duplicate route id/);
    expect(() => validateRouteSpecs([base, { ...base, key: 'a/patch', id: 'a.patch', method: 'PATCH', path: '/v1/a/{aId}' }])).toThrow(/conflicts/);
    expect(() => validateRouteSpecs([{ ...base, path: '/a/{id}' }])).toThrow(/\/v1/);
  });

  it('derive construct ids and execute-api paths', () => {
    expect(constructIdOf('api_keys.create')).toBe('ApiKeysCreate');
    expect(arnPathOf('/v1/entities/{entity_id}/api-keys/{id}')).toBe('/v1/entities/*/api-keys/*');
  });
});

describe('the real stages', () => {
  it.each(['sandbox', 'prod'] as const)(`%s: every template holds at most ${TODAY_LIMIT} resources`, (name) => {
    const stage = realStage(name);
    // Every stack and nested stack was counted: the account, data and API stacks, the alarms, jobs, webhooks and one per area.
    expect(Object.keys(stage.resourceCounts)).toHaveLength(3 + 3 + routesByArea(realRoutes()).size);
    for (const [path, count] of Object.entries(stage.resourceCounts)) expect(count, path).toBeLessThanOrEqual(TODAY_LIMIT);
    console.log(`${name}: largest template ${largest(stage.resourceCounts).join(' at ')} resources`);
  });

  it('keep the logical ids of the stateful resources (a new id would replace the database, a table, the bus or the API)', () => {
    const stateful = {
      'AWS::RDS::DBCluster': 'DatabaseCluster5B53A178',
      'AWS::RDS::DBInstance': 'DatabaseClusterWriterD43085C6',
      'AWS::RDS::DBProxy': 'DatabaseProxyE01FC4E6',
      'AWS::SecretsManager::Secret': 'DatabaseAppSecret2E50FD00',
      'AWS::DynamoDB::Table': 'IdempotencyTable48612DF4',
      'AWS::Events::EventBus': 'EventsBus45DE4339',
      'AWS::Events::Archive': 'EventsBusArchive3AC72948',
    };
    for (const name of ['sandbox', 'prod'] as const) {
      const { data, api } = realStage(name);
      for (const [type, logicalId] of Object.entries(stateful)) expect(Object.keys(data.findResources(type)), `${name} ${type}`).toContain(logicalId);
      // The REST API's id is its base URL.
      expect(Object.keys(api.findResources('AWS::ApiGateway::RestApi')), name).toEqual(['ApiRestApiE35FEAFE']);
    }
  });
});

describe('twice the real route table', () => {
  const routes = doubledRoutes(realRoutes());

  it('is a valid table of twice the routes', () => {
    expect(routes).toHaveLength(2 * realRoutes().length);
    expect(() => validateRouteSpecs(routes.filter((route) => !route.path.startsWith('/docs')))).not.toThrow();
  });

  it(`keeps every template under ${DOUBLED_LIMIT} resources, and cdk-nag clean`, () => {
    const doubled = synthStage({ stage: 'prod', routes });
    try {
      for (const [path, count] of Object.entries(doubled.resourceCounts)) expect(count, path).toBeLessThan(DOUBLED_LIMIT);
      expect(doubled.nag.violations.filter((violation) => violation.severity === 'error')).toEqual([]);
      console.log(`doubled (${routes.length} routes): largest template ${largest(doubled.resourceCounts).join(' at ')} resources`);
    } finally {
      doubled.cleanup();
    }
  }, 300_000);
});
