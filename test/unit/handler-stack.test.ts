import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { z } from 'zod';
import { callerFromAuthorizer, etagMatches, etagOf, lambdaHandler } from '../../shared/http/handler-stack';
import { definePublicRoute } from '../../shared/http/route';
import { onFirstUse } from '../../shared/schemas/lazy';

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

describe('the ETag of a large GET body', () => {
  it('is remembered while the body stays the same, and computed again when it changes', async () => {
    let body = JSON.stringify({ text: 'a'.repeat(100_000) });
    const route = definePublicRoute({
      id: 'test.large_document',
      method: 'GET',
      path: '/v1/large-document',
      tag: 'Platform',
      summary: 'A large document',
      description: 'A large document.',
      contentType: 'application/json',
      response: onFirstUse(() => z.record(z.string(), z.unknown())),
      handler: () => Promise.resolve(body),
    });
    const handler = lambdaHandler(route);
    const get = async () => {
      const event = { httpMethod: 'GET', resource: '/v1/large-document', path: '/v1/large-document', headers: {}, requestContext: { requestId: 'req-large' } };
      return (await handler(event as unknown as APIGatewayProxyEvent, { awsRequestId: 'large' } as Context)).headers!.ETag;
    };
    const first = await get();
    expect(first).toBe(etagOf(body));
    expect(await get()).toBe(first);
    // A body of the same length with one character changed is a new body, with its own tag.
    body = JSON.stringify({ text: `${'a'.repeat(99_999)}b` });
    expect(await get()).toBe(etagOf(body));
    expect(await get()).not.toBe(first);
  });
});
