/**
 * A local stand-in for API Gateway (REST) + the Lambda authorizer: routes by the route table,
 * authorizes with the same authorizer function (with the same cache keying), rate-limits per key,
 * builds the same proxy event and calls the very same Lambda handler of each route.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as authorize } from '../functions/authorizer/authorizer';
import type { RouteModule } from '../functions/routes';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../shared/errors';
import { ERROR_STATUS, statusOf } from '../shared/http/error-status';
import { buildOpenApiDocument } from '../shared/http/openapi';
import { setOpenApiSource } from '../shared/http/openapi-source';
import { log } from '../shared/log';
import { TokenBucketLimiter } from './rate-limiter';

export interface GatewayOptions {
  routes: RouteModule[];
  /** Authorizer results are cached per Authorization header value, as on AWS. 0 disables. */
  authorizerCacheTtlMs?: number;
  /** Requests per second and burst, per API key (or per client address on public routes). */
  rateLimit?: { ratePerSecond: number; burst: number };
  /** Largest accepted body; Lambda's payload limit is 6 MB. */
  maxBodyBytes?: number;
}

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface CompiledRoute {
  module: RouteModule;
  segments: string[];
}

function compile(routes: RouteModule[]): CompiledRoute[] {
  return routes.map((module) => ({ module, segments: module.route.path.split('/').filter(Boolean) }));
}

function match(routes: CompiledRoute[], method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  // Literal segments win over placeholders, as in API Gateway (/api-keys/{id}/roll vs /api-keys/{id}).
  const candidates = routes
    .filter((route) => route.module.route.method === method && route.segments.length === parts.length)
    .sort((a, b) => b.segments.filter((s) => !s.startsWith('{')).length - a.segments.filter((s) => !s.startsWith('{')).length);
  for (const route of candidates) {
    const params: Record<string, string> = {};
    const ok = route.segments.every((segment, index) => {
      if (segment.startsWith('{')) {
        params[segment.slice(1, -1)] = decodeURIComponent(parts[index]);
        return true;
      }
      return segment === parts[index];
    });
    if (ok) return { route, params };
  }
  return undefined;
}

function envelope(code: ErrorCode, requestId: string, hint?: string): string {
  return JSON.stringify(new ApiError(code, hint ? { hint } : {}).toEnvelope(requestId));
}

async function readBody(request: http.IncomingMessage, limit: number): Promise<string | null> {
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
  const routes = compile(options.routes);
  setOpenApiSource(() => buildOpenApiDocument(options.routes.map((module) => module.route)));
  const cacheTtl = options.authorizerCacheTtlMs ?? 0;
  const authorizerCache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const limiter = new TokenBucketLimiter(options.rateLimit ?? { ratePerSecond: 50, burst: 100 });
  const maxBody = options.maxBodyBytes ?? 6 * 1024 * 1024;

  async function authorizeCached(header: string, methodArn: string): Promise<APIGatewayAuthorizerResult> {
    const cached = authorizerCache.get(header);
    if (cached && cached.expires > Date.now()) return cached.result;
    const result = await authorize({ headers: { Authorization: header }, methodArn });
    if (cacheTtl > 0) authorizerCache.set(header, { result, expires: Date.now() + cacheTtl });
    return result;
  }

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': requestId, ...headers });
      response.end(body);
    };
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const method = (request.method ?? 'GET').toUpperCase();
      const found = match(routes, method, url.pathname);
      if (!found) return send(404, envelope('route_not_found', requestId));
      const { route } = found.route.module;
      const authorization = request.headers.authorization;

      const limit = limiter.take(authorization ?? request.socket.remoteAddress ?? 'anonymous');
      const rateHeaders = {
        'RateLimit-Limit': String(limit.limit),
        'RateLimit-Remaining': String(limit.remaining),
        'RateLimit-Reset': String(limit.resetSeconds),
      };
      if (!limit.allowed) return send(429, envelope('rate_limit_exceeded', requestId), { ...rateHeaders, 'Retry-After': String(limit.retryAfterSeconds) });

      let authorizer: Record<string, unknown> | null = null;
      if (route.auth === 'api_key') {
        if (!authorization) return send(401, envelope('api_key_missing', requestId), rateHeaders);
        const methodArn = `arn:aws:execute-api:local:000000000000:local/v1/${method}${url.pathname}`;
        const result = await authorizeCached(authorization, methodArn);
        const context = (result.context ?? {}) as Record<string, unknown>;
        if (result.policyDocument.Statement[0].Effect !== 'Allow') {
          const code = String(context.errorCode) as ErrorCode;
          return send(code in ERROR_STATUS ? ERROR_STATUS[code] : 401, envelope(code in ERROR_CATALOG ? code : 'api_key_invalid', requestId), rateHeaders);
        }
        authorizer = { ...context, principalId: result.principalId };
      }

      const body = await readBody(request, maxBody);
      const multiQuery: Record<string, string[]> = {};
      for (const [name, value] of url.searchParams) (multiQuery[name] ??= []).push(value);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      const event = {
        resource: route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders: {},
        queryStringParameters: Object.keys(multiQuery).length ? Object.fromEntries(Object.entries(multiQuery).map(([k, v]) => [k, v[v.length - 1]])) : null,
        multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
        pathParameters: Object.keys(found.params).length ? found.params : null,
        stageVariables: null,
        body,
        isBase64Encoded: false,
        requestContext: { requestId, authorizer, httpMethod: method, path: url.pathname, resourcePath: route.path, stage: 'local' },
      } as unknown as APIGatewayProxyEvent;
      const deadline = Date.now() + 29_000;
      const context = {
        functionName: route.id,
        awsRequestId: requestId,
        getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      } as unknown as Context;
      const result = await (found.route.module.handler as LambdaHandler)(event, context);
      response.writeHead(result.statusCode, { ...rateHeaders, ...(result.headers as Record<string, string>) });
      response.end(result.body);
    } catch (error) {
      if (error instanceof ApiError) return send(statusOf(error), JSON.stringify(error.toEnvelope(requestId)));
      log.error('gateway failure', { requestId, error });
      send(500, envelope('internal_error', requestId));
    }
  };
  // node:http ignores what a listener returns; handle() answers every failure itself.
  return (request, response) => void handle(request, response);
}
