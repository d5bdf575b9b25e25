import { describe, expect, it } from 'vitest';
import { entityFilters, lockEntityResource, updateSet } from '../../shared/db/sql';

const COLUMNS = ['name', 'city', 'is_active'] as const;

describe('updateSet', () => {
  it('assigns each defined allowed member and appends updated_at = now()', () => {
    const params: unknown[] = [];
    expect(updateSet({ name: 'Dock', city: 'Austin' }, COLUMNS, params)).toBe('SET name = $1, city = $2, updated_at = now()');
    expect(params).toEqual(['Dock', 'Austin']);
  });

  it('appends params after the existing ones, numbering from there', () => {
    const params: unknown[] = ['entity', 'location'];
    expect(updateSet({ city: 'Paris' }, COLUMNS, params)).toBe('SET city = $3, updated_at = now()');
    expect(params).toEqual(['entity', 'location', 'Paris']);
  });

  it('orders assignments by the column list, not by the patch', () => {
    const params: unknown[] = [];
    expect(updateSet({ is_active: false, name: 'B' }, COLUMNS, params)).toBe('SET name = $1, is_active = $2, updated_at = now()');
    expect(params).toEqual(['B', false]);
  });

  it('ignores members that are not allowed columns', () => {
    const params: unknown[] = [];
    expect(updateSet({ name: 'X', entity_id: 'other', 'id = id; DROP TABLE x; --': 1 }, COLUMNS, params)).toBe('SET name = $1, updated_at = now()');
    expect(params).toEqual(['X']);
  });

  it('skips undefined members but keeps null (clearing a field) and falsy values', () => {
    const params: unknown[] = [];
    expect(updateSet({ name: undefined, city: null, is_active: false }, COLUMNS, params)).toBe('SET city = $1, is_active = $2, updated_at = now()');
    expect(params).toEqual([null, false]);
  });

  it('returns undefined and adds no params when nothing changes', () => {
    const params: unknown[] = ['entity'];
    expect(updateSet({}, COLUMNS, params)).toBeUndefined();
    expect(updateSet({ name: undefined, other: 'x' }, COLUMNS, params)).toBeUndefined();
    expect(params).toEqual(['entity']);
  });
});

describe('lockEntityResource', () => {
  it('takes a transaction advisory lock keyed by entity and resource', () => {
    expect(lockEntityResource('locations')).toBe("SELECT pg_advisory_xact_lock(hashtextextended(current_entity_id()::text || ':locations', 0))");
  });
});

describe('entityFilters', () => {
  it('starts with the entity as $1 and binds each given filter as the next parameter, skipping undefined ones', () => {
    const { where, params, add } = entityFilters('r', 'entity');
    add((n) => `r.vendor_id = ${n}`, 'vendor');
    add((n) => `r.order_id = ${n}`, undefined);
    add((n) => `(r.a = ${n} OR r.b = ${n})`, 'both');
    add((n) => `r.is_open = ${n}`, false);
    add((n) => `r.note IS NOT DISTINCT FROM ${n}`, null);
    expect(where).toEqual(['r.entity_id = $1', 'r.vendor_id = $2', '(r.a = $3 OR r.b = $3)', 'r.is_open = $4', 'r.note IS NOT DISTINCT FROM $5']);
    expect(params).toEqual(['entity', 'vendor', 'both', false, null]);
  });
});
