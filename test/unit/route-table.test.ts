import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTE_MODULES, ROUTES } from '../../functions/routes';
import { isKnownScope } from '../../shared/auth/scopes';
import type { RouteSchemas } from '../../shared/http/route';

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

describe('the route table', () => {
  it("keys are the handler modules' real paths, each exporting route and handler", () => {
    for (const [key, module] of Object.entries(ROUTE_MODULES)) {
      expect(existsSync(`${functionsDir}${key}.ts`), key).toBe(true);
      expect(typeof module.handler, key).toBe('function');
    }
  });

  it("sits under functions/<the URL's first segment after /v1>/ (platform routes under their area), so a URL leads to its file", () => {
    for (const [key, module] of Object.entries(ROUTE_MODULES)) {
      // The reference page and its assets sit at the root, outside the versioned API.
      if (module.route.path === '/docs' || module.route.path.startsWith('/docs/')) {
        expect(key.split('/')[0], module.route.path).toBe('docs');
        continue;
      }
      const segments = module.route.path.split('/').slice(2);
      const area = segments[0] === 'entities' && segments[1] === '{entity_id}' ? segments[2] : segments[0];
      expect(key.split('/')[0], module.route.path).toBe(area.replace(/\.json$/, ''));
    }
  });

  it('has unique ids and unique method + path pairs, all under /v1 but the public reference page', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
    for (const route of ROUTES) {
      const isDocs = route.path === '/docs' || route.path.startsWith('/docs/');
      expect(route.path.startsWith('/v1/') || (isDocs && route.auth === 'none'), route.path).toBe(true);
    }
  });

  it('marks transactional: false exactly the writes that reach beyond their transaction (card processor, workflow start, after-commit work)', () => {
    const reachesOut = /paymentProcessor\(|startSnapshot\(|afterCommit\(/;
    const marked = Object.entries(ROUTE_MODULES)
      .filter(([, module]) => module.route.auth === 'api_key' && module.route.transactional === false)
      .map(([key]) => key);
    const reaching = Object.entries(ROUTE_MODULES)
      .filter(([key, module]) => module.route.method !== 'GET' && reachesOut.test(readFileSync(`${functionsDir}${key}.ts`, 'utf8')))
      .map(([key]) => key);
    // The sandbox test helper checks the processor's name and writes only its own table; the batch
    // passes on its operations' after-commit work, and runs only operations that have none.
    const inTransaction = new Set(['test_helpers/confirm-setup-intent', 'batch/run-batch']);
    expect(marked.sort()).toEqual(reaching.filter((key) => !inTransaction.has(key)).sort());
    expect(marked.length).toBeGreaterThanOrEqual(4);
  });

  it('every API-key route names known scopes, and every PATCH or DELETE can honour If-Match', () => {
    for (const route of ROUTES) {
      if (route.auth !== 'api_key') continue;
      // The batch alone needs no scope of its own: each of its operations needs its route's.
      if (route.id !== 'batch.run') expect(route.scopes.length, route.id).toBeGreaterThan(0);
      for (const scope of route.scopes) expect(isKnownScope(scope), `${route.id}: ${scope}`).toBe(true);
      if (route.method === 'PATCH' || route.method === 'DELETE') expect(route.current, `${route.id} needs current`).toBeDefined();
    }
  });

  it('path placeholders and params schemas agree', () => {
    for (const route of ROUTES) {
      const placeholders = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const schemas: RouteSchemas = route;
      expect(Object.keys(schemas.params?.shape ?? {}).sort(), route.id).toEqual(placeholders);
    }
  });
});
