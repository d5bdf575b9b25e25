import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callerFromAuthorizer, etagMatches, etagOf } from '../../shared/http/handler-stack';

describe('etagOf', () => {
  it('is a quoted, 32-character base64url digest of the body', () => {
    const tag = etagOf('{"id":"1"}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(tag).toBe(`"${createHash('sha256').update('{"id":"1"}').digest('base64url').slice(0, 32)}"`);
  });

  it('is stable for the same body and changes with the body', () => {
    expect(etagOf('a')).toBe(etagOf('a'));
    expect(etagOf('a')).not.toBe(etagOf('b'));
  });
});

describe('etagMatches', () => {
  const tag = etagOf('{"name":"Main"}');

  it('matches the identical tag', () => {
    expect(etagMatches(tag, tag)).toBe(true);
  });

  it('does not match a different tag', () => {
    expect(etagMatches(etagOf('other'), tag)).toBe(false);
  });

  it('compares weakly: a W/ prefix on either side is ignored', () => {
    expect(etagMatches(`W/${tag}`, tag)).toBe(true);
    expect(etagMatches(tag, `W/${tag}`)).toBe(true);
    expect(etagMatches(`W/${tag}`, `W/${tag}`)).toBe(true);
  });

  it('matches * against any tag', () => {
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches(' * ', tag)).toBe(true);
  });

  it('matches when the tag is anywhere in a comma-separated list', () => {
    expect(etagMatches(`"aaa", ${tag}, "bbb"`, tag)).toBe(true);
    expect(etagMatches(`"aaa",W/${tag}`, tag)).toBe(true);
    expect(etagMatches(`"aaa", "bbb"`, tag)).toBe(false);
  });

  it('does not match an unquoted or partial tag', () => {
    expect(etagMatches(tag.slice(1, -1), tag)).toBe(false);
    expect(etagMatches(tag.slice(0, -2) + '"', tag)).toBe(false);
  });

  it('does not match the empty header', () => {
    expect(etagMatches('', tag)).toBe(false);
  });
});

describe('callerFromAuthorizer', () => {
  const context = {
    entityId: '3f1c2b9e-7a44-4d0e-9a43-0c4f1b8e2d11',
    entityCode: 'acme',
    keyId: 'key_1',
    userId: 'user_1',
    mode: 'live',
    scopes: 'orders:read orders:write products:read',
  };

  it('builds the caller from the string context', () => {
    expect(callerFromAuthorizer(context)).toEqual({
      entityId: context.entityId,
      entityCode: 'acme',
      keyId: 'key_1',
      userId: 'user_1',
      mode: 'live',
      scopes: ['orders:read', 'orders:write', 'products:read'],
    });
  });

  it('splits scopes on spaces and drops empty pieces', () => {
    expect(callerFromAuthorizer({ ...context, scopes: '  orders:read   products:write ' })!.scopes).toEqual(['orders:read', 'products:write']);
  });

  it('gives no scopes for an empty or missing scopes value', () => {
    expect(callerFromAuthorizer({ ...context, scopes: '' })!.scopes).toEqual([]);
    const { scopes: _scopes, ...withoutScopes } = context;
    expect(callerFromAuthorizer(withoutScopes)!.scopes).toEqual([]);
  });

  it('treats any mode but live as test', () => {
    expect(callerFromAuthorizer({ ...context, mode: 'test' })!.mode).toBe('test');
    expect(callerFromAuthorizer({ ...context, mode: 'LIVE' })!.mode).toBe('test');
    expect(callerFromAuthorizer({ ...context, mode: undefined })!.mode).toBe('test');
  });

  it('returns undefined when entityId is missing or not a string', () => {
    const { entityId: _entityId, ...withoutEntity } = context;
    expect(callerFromAuthorizer(withoutEntity)).toBeUndefined();
    expect(callerFromAuthorizer({ ...context, entityId: 42 })).toBeUndefined();
  });

  it('returns undefined for a null or absent authorizer', () => {
    expect(callerFromAuthorizer(null)).toBeUndefined();
    expect(callerFromAuthorizer(undefined)).toBeUndefined();
  });
});
