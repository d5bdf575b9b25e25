/**
 * Around every route invocation (lambdaHandler in handler-stack.ts): the logger of the request,
 * whose lines carry its context (request id, route, entity and key ids from the authorizer, cold
 * start), handed to the invocation, and its metrics (Powertools Metrics, shared/powertools.ts),
 * published before the invocation returns: Requests and Latency by route, and Errors by code for
 * every answer of 400 or more. The code is read back from the error envelope the stack produced,
 * so nothing inside the stack changes; only the code is read, never another field of the body.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { METRIC_NAMES } from '../metric-names';
import { MetricUnit, publishMetrics, requestLogger, type Log } from '../powertools';

export type RouteInvocation = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type ObservedInvocation = (event: APIGatewayProxyEvent, context: Context, requestLog: Log) => Promise<APIGatewayProxyResult>;

/** True until the first invocation of this execution environment has started. */
let coldStart = true;

/** The error code of an error envelope; `unknown` when the body is not one. */
function errorCodeOf(response: APIGatewayProxyResult): string {
  try {
    const code = (JSON.parse(response.body) as { code?: unknown }).code;
    return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The Requests value of every record: the same for every request. */
const ONE_REQUEST = { name: METRIC_NAMES.requests, unit: MetricUnit.Count, value: 1 } as const;

export function observed(routeId: string, invoke: ObservedInvocation): RouteInvocation {
  const byRoute = { route: routeId };
  return async (event, context) => {
    // process.hrtime, not performance.now(): the global `performance` loads perf_hooks on first use (about 1 ms of a cold start).
    const started = process.hrtime.bigint();
    const authorizer = event.requestContext?.authorizer;
    const requestLog = requestLogger({
      request_id: event.requestContext?.requestId,
      function_request_id: context?.awsRequestId,
      route: routeId,
      entity_id: typeof authorizer?.entityId === 'string' ? authorizer.entityId : undefined,
      key_id: typeof authorizer?.keyId === 'string' ? authorizer.keyId : undefined,
      cold_start: coldStart,
    });
    coldStart = false;
    const response = await invoke(event, context, requestLog);
    const latency = Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100;
    publishMetrics([ONE_REQUEST, { name: METRIC_NAMES.latency, unit: MetricUnit.Milliseconds, value: latency }], byRoute);
    if (response.statusCode >= 400) publishMetrics([{ name: METRIC_NAMES.errors, unit: MetricUnit.Count, value: 1 }], { code: errorCodeOf(response) });
    return response;
  };
}
