import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { etagMatches, etagOf } from '../../shared/http/etag';
import { publicHandler } from '../../shared/http/public-handler';
import { callerFromAuthorizer } from '../../shared/http/route-pipeline';
import { definePublicRoute } from '../../shared/http/route';

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

describe('the ETag of a public route', () => {
  const get = async (handler: ReturnType<typeof publicHandler>, headers: Record<string, string> = {}) => {
    const event = { httpMethod: 'GET', resource: '/v1/document', path: '/v1/document', headers, requestContext: { requestId: 'req-document' } };
    return handler(event as unknown as APIGatewayProxyEvent, { awsRequestId: 'document' } as Context);
  };
  const common = { method: 'GET', path: '/v1/document', tag: 'Platform', summary: 'A document', description: 'A document.' } as const;

  it('is the one a text route serves with its text, not a hash of the body', async () => {
    const text = JSON.stringify({ text: 'a'.repeat(100_000) });
    const route = definePublicRoute({
      ...common,
      id: 'test.text_document',
      contentType: 'application/json',
      response: z.record(z.string(), z.unknown()),
      handler: () => Promise.resolve({ body: text, etag: '"served-tag"' }),
    });
    const handler = publicHandler(route);
    const response = await get(handler);
    expect(response).toMatchObject({ statusCode: 200, body: text, headers: { ETag: '"served-tag"', 'Content-Type': 'application/json' } });
    const conditional = await get(handler, { 'If-None-Match': '"served-tag"' });
    expect(conditional).toMatchObject({ statusCode: 304, body: '', headers: { ETag: '"served-tag"' } });
    expect((await get(handler, { 'If-None-Match': etagOf(text) })).statusCode).toBe(200);
  });

  it('is the hash of the body for a route that returns JSON', async () => {
    const route = definePublicRoute({
      ...common,
      id: 'test.json_document',
      response: z.object({ name: z.string() }),
      handler: () => Promise.resolve({ name: 'document' }),
    });
    const response = await get(publicHandler(route));
    expect(response).toMatchObject({ statusCode: 200, body: '{"name":"document"}', headers: { ETag: etagOf('{"name":"document"}') } });
  });
});
