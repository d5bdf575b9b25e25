/**
 * A local stand-in for API Gateway (REST) + the Lambda authorizer: routes by the route table,
 * authorizes with the same authorizer function (with the same cache keying), rate-limits per key
 * and failed authentications per client address, builds the same proxy event and calls the very
 * same Lambda handler of each route.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as authorize } from '../functions/authorizer/authorizer';
import type { RouteModule } from '../functions/routes';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../shared/errors';
import { ERROR_STATUS, statusOf } from '../shared/http/error-status';
import { buildOpenApiDocument } from '../shared/http/openapi';
import { MAX_BODY_BYTES } from '../shared/http/validation';
import { setOpenApiSource } from '../shared/http/openapi-source';
import { LOCAL_AUTH_FAILURE_LIMIT, LOCAL_RATE_LIMIT } from '../shared/http/rate-limits';
import { logger } from '../shared/powertools';
import { writeResponse } from './compression';
import { LruCache } from './lru-cache';
import { buildRouteTable } from './route-matcher';
import { DEFAULT_MAX_KEYS, TokenBucketLimiter, type LimitDecision } from './rate-limiter';

export interface GatewayOptions {
  routes: RouteModule[];
  /** Authorizer results are cached per Authorization header value, as on AWS. 0 disables. */
  authorizerCacheTtlMs?: number;
  /** Requests per second and burst, per API key (or per client address on public routes). */
  rateLimit?: { ratePerSecond: number; burst: number };
  /**
   * Failed authentications per second and burst, per client address: past it, requests that need
   * the authorizer are refused with 429 before it runs, so bogus keys cannot reach the database.
   */
  authFailureLimit?: { ratePerSecond: number; burst: number };
  /** Most authorizer results and rate-limit buckets kept (least recently used dropped first). */
  maxCachedKeys?: number;
  /** The Lambda authorizer to call (tests wrap it to count calls). */
  authorizer?: typeof authorize;
  /** Largest accepted body (default MAX_BODY_BYTES, the handler stack's limit on AWS too). */
  maxBodyBytes?: number;
}

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Longest request target (path and query), as on API Gateway; a longer one is 414 uri_too_long. */
const MAX_URL_BYTES = 8192;
/** Request line and headers together, Node's default made explicit: past it, 431 (or 414 when the URL alone is too long). */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The path and query of a request target, split by hand: `new URL` would read `//host/x` as a host
 * and an absolute-form target as another origin. The query stays text until there is one to parse.
 */
function splitTarget(target: string): { pathname: string; query: string } {
  // The usual origin-form target (`/v1/...`) needs no origin stripped.
  const withoutOrigin = target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const hash = withoutOrigin.indexOf('#');
  const local = hash < 0 ? withoutOrigin : withoutOrigin.slice(0, hash);
  const question = local.indexOf('?');
  const pathname = question < 0 ? local : local.slice(0, question);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, query: question < 0 ? '' : local.slice(question + 1) };
}

/**
 * Node answers a request line or headers over maxHeaderSize with a bare 431 before any listener
 * runs; this answers it with the envelope instead: 414 uri_too_long when the request line alone is
 * over the URL limit, 431 headers_too_large otherwise. Other parse errors keep Node's bare 400.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (error.code !== 'HPE_HEADER_OVERFLOW') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  const packet = error.rawPacket ?? Buffer.alloc(0);
  const lineEnd = packet.indexOf('\n');
  const code: ErrorCode = lineEnd < 0 || lineEnd > MAX_URL_BYTES ? 'uri_too_long' : 'headers_too_large';
  const status = ERROR_STATUS[code];
  const requestId = randomUUID();
  const body = envelope(code, requestId);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** What a handler learns of its invocation locally: API Gateway's 29 s integration timeout is its deadline. */
class LocalContext {
  private readonly deadline = Date.now() + 29_000;
  constructor(
    readonly functionName: string,
    readonly awsRequestId: string,
  ) {}
  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }
}

/** A JSON answer the gateway gives itself (an error envelope), with the request id. */
function sendJson(response: http.ServerResponse, requestId: string, status: number, body: string, headers?: Record<string, string>): void {
  writeResponse(response.req, response, status, { 'Content-Type': 'application/json', 'Request-Id': requestId, ...headers }, body);
}

/** The local HTTP server: the gateway as its listener, with the header limit answered in the envelope. */
export function createGatewayServer(options: GatewayOptions): http.Server {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, createGateway(options));
  server.on('clientError', answerClientError);
  return server;
}

/**
 * An authorizer result with the event's requestContext.authorizer it gives, built once when the
 * authorizer answers and cached with it (the stack only reads it).
 */
interface Authorized {
  result: APIGatewayAuthorizerResult;
  eventContext: Record<string, unknown>;
  expires: number;
}

type Authentication = { ok: true; eventContext: Record<string, unknown> } | { ok: false; status: number; code: ErrorCode; headers?: Record<string, string> };

function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(!decision.allowed && { 'Retry-After': String(decision.retryAfterSeconds) }),
  };
}

function envelope(code: ErrorCode, requestId: string, hint?: string): string {
  return JSON.stringify(new ApiError(code, hint ? { hint } : {}).toEnvelope(requestId));
}

/** No length and no chunked encoding: HTTP/1.1 says there is no body (most GETs), so no stream to read. */
function hasBody(request: http.IncomingMessage): boolean {
  return request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
}

async function readBody(request: http.IncomingMessage, limit: number): Promise<string | null> {
  // A declared length over the limit is refused before a byte is read.
  if (Number(request.headers['content-length'] ?? 0) > limit) throw new ApiError('request_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError('request_too_large');
    chunks.push(chunk as Buffer);
  }
  return size === 0 ? null : Buffer.concat(chunks).toString('utf8');
}

export function createGateway(options: GatewayOptions): http.RequestListener {
  const routes = buildRouteTable(options.routes);
  setOpenApiSource(() => buildOpenApiDocument(options.routes.map((module) => module.route)));
  const cacheTtl = options.authorizerCacheTtlMs ?? 0;
  const maxKeys = options.maxCachedKeys ?? DEFAULT_MAX_KEYS;
  const authorizerCache = new LruCache<string, Authorized>(maxKeys);
  const limiter = new TokenBucketLimiter({ ...(options.rateLimit ?? LOCAL_RATE_LIMIT), maxKeys });
  const authFailures = new TokenBucketLimiter({ ...(options.authFailureLimit ?? LOCAL_AUTH_FAILURE_LIMIT), maxKeys });
  const authorizer = options.authorizer ?? authorize;
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;

  const allows = (result: APIGatewayAuthorizerResult) => result.policyDocument.Statement[0].Effect === 'Allow';

  /** The cached, unexpired authorizer result for this Authorization value, if there is one. */
  function freshlyAuthorized(header: string | undefined): Authorized | undefined {
    const cached = header === undefined ? undefined : authorizerCache.get(header);
    return cached && cached.expires > Date.now() ? cached : undefined;
  }

  /** The authorizer context of a cached, unexpired Allow for this Authorization value: such a request costs nothing more. */
  function cachedAllow(header: string | undefined): Record<string, unknown> | undefined {
    const fresh = freshlyAuthorized(header);
    return fresh && allows(fresh.result) ? fresh.eventContext : undefined;
  }

  /**
   * Authenticates a request that has no cached Allow. Failed authentications are counted per client
   * address: each spends a token of the address's budget (taken before the authorizer runs, so
   * concurrent attempts count too, and given back when the key turns out valid). Once the budget is
   * spent, a failure is answered 429 with the budget's Retry-After instead of 401, but the key is
   * still checked: a valid key is never refused for the failures of another client behind the same
   * address. (On AWS the WAF's per-address rate rule bounds how many checks an address can cause.)
   */
  async function authenticateFrom(address: string, header: string | undefined, method: string, path: string): Promise<Authentication> {
    const fresh = freshlyAuthorized(header);
    const failures = authFailures.take(address);
    const throttled: Authentication = { ok: false, status: 429, code: 'rate_limit_exceeded', headers: rateLimitHeaders(failures) };
    if (header === undefined) return failures.allowed ? { ok: false, status: 401, code: 'api_key_missing' } : throttled;
    let authorized = fresh;
    try {
      if (!authorized) {
        const result = await authorizer({ headers: { Authorization: header }, methodArn: `arn:aws:execute-api:local:000000000000:local/v1/${method}${path}` });
        authorized = { result, eventContext: { ...result.context, principalId: result.principalId }, expires: Date.now() + cacheTtl };
        if (cacheTtl > 0) authorizerCache.set(header, authorized);
      }
    } finally {
      // An authorizer that failed (database unreachable) is not a failed authentication.
      if (failures.allowed && (!authorized || allows(authorized.result))) authFailures.refund(address);
    }
    const { result } = authorized;
    if (allows(result)) return { ok: true, eventContext: authorized.eventContext };
    if (!failures.allowed) return throttled;
    const context = (result.context ?? {}) as Record<string, unknown>;
    const code = String(context.errorCode) as ErrorCode;
    if (!(code in ERROR_CATALOG)) return { ok: false, status: 401, code: 'api_key_invalid' };
    return { ok: false, status: ERROR_STATUS[code], code };
  }

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    // Once the request is counted, every answer carries the RateLimit headers, errors included.
    let rateHeaders: Record<string, string> = {};
    try {
      const target = request.url ?? '/';
      if (Buffer.byteLength(target) > MAX_URL_BYTES) return sendJson(response, requestId, 414, envelope('uri_too_long', requestId));
      const url = splitTarget(target);
      const method = (request.method ?? 'GET').toUpperCase();
      const found = routes.match(method, url.pathname);
      if (!found) {
        // A path that exists with other methods is a 405 naming them, as on API Gateway (infra/constructs/api.ts).
        const allow = routes.methodsAt(url.pathname);
        if (allow.length === 0) return sendJson(response, requestId, 404, envelope('route_not_found', requestId));
        const error = new ApiError('method_not_allowed', { details: { allow } });
        return sendJson(response, requestId, 405, JSON.stringify(error.toEnvelope(requestId)), { Allow: allow.join(', ') });
      }
      const { route } = found.route;
      const authorization = request.headers.authorization;
      // The socket's address, never X-Forwarded-For: a client could claim any address in a header.
      const address = request.socket.remoteAddress ?? 'unknown';

      // Per key (the Authorization value, as the authorizer cache is keyed) before authorizing, so a
      // key over its limit costs no database work; per client address without a key.
      const limit = limiter.take(authorization === undefined ? `address ${address}` : `key ${authorization}`);
      rateHeaders = rateLimitHeaders(limit);
      if (!limit.allowed) return sendJson(response, requestId, 429, envelope('rate_limit_exceeded', requestId), rateHeaders);

      let authorizer: Record<string, unknown> | null = null;
      if (route.auth === 'api_key') {
        // A cached Allow (nearly every request of a client) is answered without an await.
        authorizer = cachedAllow(authorization) ?? null;
        if (!authorizer) {
          const authentication = await authenticateFrom(address, authorization, method, url.pathname);
          if (!authentication.ok)
            return sendJson(response, requestId, authentication.status, envelope(authentication.code, requestId), authentication.headers ?? rateHeaders);
          authorizer = authentication.eventContext;
        }
      }

      const body = hasBody(request) ? await readBody(request, maxBody) : null;
      // Prototype-less: a parameter named __proto__ or constructor is an ordinary (unknown) name.
      let multiQuery: Record<string, string[]> | null = null;
      if (url.query) {
        multiQuery = Object.create(null) as Record<string, string[]>;
        for (const [name, value] of new URLSearchParams(url.query)) (multiQuery[name] ??= []).push(value);
        if (Object.keys(multiQuery).length === 0) multiQuery = null;
      }
      const headers: Record<string, string> = {};
      const incoming = request.headers;
      for (const name in incoming) {
        const value = incoming[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const event = {
        resource: route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders: {},
        queryStringParameters: multiQuery && Object.fromEntries(Object.entries(multiQuery).map(([k, v]) => [k, v[v.length - 1]])),
        multiValueQueryStringParameters: multiQuery,
        pathParameters: found.params,
        stageVariables: null,
        body,
        isBase64Encoded: false,
        requestContext: { requestId, authorizer, httpMethod: method, path: url.pathname, resourcePath: route.path, stage: 'local' },
      } as unknown as APIGatewayProxyEvent;
      const context = new LocalContext(route.id, requestId) as unknown as Context;
      const result = await (found.route.handler as LambdaHandler)(event, context);
      writeResponse(request, response, result.statusCode, Object.assign(rateHeaders, result.headers), result.body);
    } catch (error) {
      // An authorizer that could not reach the database ends here: its 503 keeps its Retry-After.
      if (error instanceof ApiError)
        return sendJson(response, requestId, statusOf(error), JSON.stringify(error.toEnvelope(requestId)), { ...rateHeaders, ...error.options.headers });
      logger.error('gateway failure', { requestId, error });
      sendJson(response, requestId, 500, envelope('internal_error', requestId), rateHeaders);
    }
  };
  // node:http ignores what a listener returns; handle() answers every failure itself.
  return (request, response) => void handle(request, response);
}
