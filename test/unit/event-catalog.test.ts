import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../events/catalog';
import { ROUTE_MODULES } from '../../functions/routes';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

describe('event contracts', () => {
  it('every event a handler records is in the catalog', () => {
    const dir = fileURLToPath(new URL('../../functions/', import.meta.url));
    for (const key of Object.keys(ROUTE_MODULES)) {
      const source = readFileSync(`${dir}${key}.ts`, 'utf8');
      for (const [, type] of source.matchAll(/events\.record\('([\w.]+)'/g)) expect(Object.keys(EVENT_CATALOG), `${key}: ${type}`).toContain(type);
    }
  });

  it('types are resource.action in lower case with a positive version', () => {
    for (const [type, contract] of Object.entries(EVENT_CATALOG)) {
      expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(contract.version).toBeGreaterThan(0);
    }
  });
});
