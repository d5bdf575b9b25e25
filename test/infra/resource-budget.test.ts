/**
 * CloudFormation allows 500 resources per stack and the product will have about 90 routes. The
 * chunking is checked as a pure function and by synthesizing a 90-route table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arnPathOf } from '../../infra/constructs/route-functions';
import { chunkRoutes, constructIdOf, ROUTES_PER_NESTED_STACK, type RouteSpec, validateRouteSpecs } from '../../infra/routes';
import { type SynthesizedStage, synthStage } from './synth';
import { syntheticRoutes } from './synthetic-routes';

describe('chunkRoutes', () => {
  it('splits sorted routes into chunks of at most 25', () => {
    const routes = syntheticRoutes();
    const chunks = chunkRoutes(routes);
    expect(chunks.map((chunk) => chunk.length)).toEqual([25, 25, 25, 16]);
    expect(chunks.flat().map((route) => route.key)).toEqual(routes.map((route) => route.key).sort());
  });

  it('is deterministic whatever the input order', () => {
    const routes = syntheticRoutes();
    expect(chunkRoutes([...routes].reverse())).toEqual(chunkRoutes(routes));
  });

  it('rejects a nonsensical chunk size', () => {
    expect(() => chunkRoutes(syntheticRoutes(), 0)).toThrow();
  });
});

describe('route table checks', () => {
  it('accept the synthetic table', () => {
    expect(() => validateRouteSpecs(syntheticRoutes())).not.toThrow();
  });

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

describe('a 90-route API', () => {
  let synthesized: SynthesizedStage;
  beforeAll(() => {
    synthesized = synthStage({ stage: 'prod', routes: syntheticRoutes() });
  });
  afterAll(() => synthesized?.cleanup());

  it('uses ceil(routes / 25) nested stacks', () => {
    expect(synthesized.stacks.api.routeStacks).toHaveLength(Math.ceil(syntheticRoutes().length / ROUTES_PER_NESTED_STACK));
  });

  it('keeps the largest stack under 450 resources and every stack under 500', () => {
    const counts = Object.values(synthesized.resourceCounts);
    expect(Math.max(...counts)).toBeLessThan(450);
    for (const [path, count] of Object.entries(synthesized.resourceCounts)) expect(count, path).toBeLessThan(500);
  });

  it('still passes cdk-nag', () => {
    expect(synthesized.nag.violations.filter((violation) => violation.severity === 'error')).toEqual([]);
  });
});
