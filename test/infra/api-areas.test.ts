/**
 * The API's nested stacks, one per area: where a route's path resources, method and function go,
 * and how the stage's one deployment takes them all.
 */
import { describe, expect, it } from 'vitest';
import { apiAreaOf, routesByArea } from '../../infra/routes';
import { realRoutes, realStage, resourcesOf } from './synth';

const routes = realRoutes();

describe('API areas', () => {
  it('are the first segment after /v1 (after /v1/entities/{entity_id} for platform routes), or the reference page', () => {
    expect(apiAreaOf('/v1/orders/{id}/lines')).toEqual({ name: 'orders', rootPath: '/v1/orders' });
    expect(apiAreaOf('/v1/entities/{entity_id}/api-keys/{id}')).toEqual({ name: 'api-keys', rootPath: '/v1/entities/{entity_id}/api-keys' });
    expect(apiAreaOf('/v1/openapi.json')).toEqual({ name: 'openapi', rootPath: '/v1/openapi.json' });
    expect(apiAreaOf('/docs/redoc.standalone.js')).toEqual({ name: 'docs', rootPath: '/docs' });
    expect(() => apiAreaOf('/v1')).toThrow(/not under an area/);
  });

  it('are the folders of functions/: every real route sits in the area named by its module key', () => {
    for (const [area, inArea] of routesByArea(routes)) {
      for (const route of inArea) expect(route.key.split('/')[0], route.path).toBe(area);
    }
  });

  it('group routes the same whatever the order of the table', () => {
    expect([...routesByArea([...routes].reverse())]).toEqual([...routesByArea(routes)]);
  });
});

describe('the area stacks of a stage', () => {
  const sandbox = () => realStage('sandbox');

  it("hold their area's methods, path resources and functions; the API stack only the paths every area shares", () => {
    sandbox().api.resourceCountIs('AWS::ApiGateway::Method', 0);
    const sharedPaths = resourcesOf<{ PathPart: string }>(sandbox().api, 'AWS::ApiGateway::Resource').map((resource) => resource.Properties.PathPart);
    expect(sharedPaths.sort()).toEqual(['entities', 'v1', '{entity_id}']);
    const orders = sandbox().stacks.api.routeStacks.findIndex((nested) => nested.node.id === 'RoutesOrders');
    const ordersMethods = resourcesOf<{ OperationName: string; HttpMethod: string }>(sandbox().routeStacks[orders], 'AWS::ApiGateway::Method')
      .filter((method) => method.Properties.HttpMethod !== 'ANY') // each path's 405 (stacks.test.ts)
      .map((method) => method.Properties.OperationName);
    expect(ordersMethods.sort()).toEqual(
      routes
        .filter((route) => route.key.startsWith('orders/'))
        .map((route) => route.id)
        .sort(),
    );
  });

  it('are all deployed: the stage deployment waits for every one', () => {
    const areaStacks = Object.keys(sandbox().api.findResources('AWS::CloudFormation::Stack')).filter((id) => id.startsWith('Routes'));
    expect(areaStacks).toHaveLength(sandbox().routeStacks.length);
    const deployments = Object.values(sandbox().api.findResources('AWS::ApiGateway::Deployment')) as { DependsOn: string[] }[];
    expect(deployments).toHaveLength(1);
    for (const id of areaStacks) expect(deployments[0].DependsOn, id).toContain(id);
  });
});
