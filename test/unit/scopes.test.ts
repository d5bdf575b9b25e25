import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, hasScope, isKnownScope, SCOPE_AREAS } from '../../shared/auth/scopes';

describe('hasScope', () => {
  it('grants a scope that is held exactly', () => {
    expect(hasScope(['orders:read'], 'orders:read')).toBe(true);
    expect(hasScope(['orders:write'], 'orders:write')).toBe(true);
    expect(hasScope(['migration:admin'], 'migration:admin')).toBe(true);
  });

  it('lets write imply read of the same area', () => {
    for (const area of SCOPE_AREAS) expect(hasScope([`${area}:write`], `${area}:read`)).toBe(true);
  });

  it('does not let read imply write', () => {
    for (const area of SCOPE_AREAS) expect(hasScope([`${area}:read`], `${area}:write`)).toBe(false);
  });

  it('does not let write of one area imply read of another', () => {
    expect(hasScope(['orders:write'], 'products:read')).toBe(false);
    expect(hasScope(['products:write', 'accounts:read'], 'orders:read')).toBe(false);
  });

  it('lets migration:admin imply nothing else', () => {
    for (const scope of ALL_SCOPES.filter((s) => s !== 'migration:admin')) expect(hasScope(['migration:admin'], scope)).toBe(false);
  });

  it('is not implied by migration:write or migration:read', () => {
    expect(hasScope(['migration:write'], 'migration:admin')).toBe(false);
    expect(hasScope(['migration:read', 'migration:write'], 'migration:admin')).toBe(false);
  });

  it('grants nothing to an empty scope list', () => {
    for (const scope of ALL_SCOPES) expect(hasScope([], scope)).toBe(false);
  });

  it('finds the scope anywhere in a list of several', () => {
    expect(hasScope(['accounts:read', 'settings:write', 'orders:write'], 'orders:read')).toBe(true);
  });
});

describe('ALL_SCOPES', () => {
  it('holds read and write for every area plus migration:admin, and nothing else', () => {
    const expected = [...SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`]), 'migration:admin'];
    expect([...ALL_SCOPES].sort()).toEqual(expected.sort());
    expect(ALL_SCOPES).toHaveLength(SCOPE_AREAS.length * 2 + 1);
  });

  it('lists the eleven documented areas', () => {
    expect([...SCOPE_AREAS].sort()).toEqual(
      ['accounts', 'accounting', 'api_keys', 'manufacturers', 'migration', 'orders', 'payments', 'products', 'purchasing', 'settings', 'webhooks'].sort(),
    );
  });

  it('has no duplicates', () => {
    expect(new Set(ALL_SCOPES).size).toBe(ALL_SCOPES.length);
  });

  it('is what isKnownScope recognises', () => {
    for (const scope of ALL_SCOPES) expect(isKnownScope(scope)).toBe(true);
    for (const scope of ['orders:admin', 'orders', '', 'ORDERS:READ', 'inventory:read']) expect(isKnownScope(scope)).toBe(false);
  });
});
