/**
 * The Lambda handler of a public route (no API key: the OpenAPI document, the reference page and
 * its script). The same pipeline as every route (route-pipeline.ts) around a core that only calls
 * the handler: no transaction, no idempotency, no events, so the bundle carries no data layer.
 * A route with a `contentType` returns its text with the ETag it knows (served-text.ts).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { RouteInvocation } from './observe';
import type { PublicRoute } from './route';
import { checkResponse, finishResponse, routePipeline, stateOf, type Event } from './route-pipeline';
import type { ServedText } from './served-text';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Route: the route generics erased
type AnyPublicRoute = PublicRoute<any, any, any, any, string, string | undefined>;

export function publicHandler(route: AnyPublicRoute): RouteInvocation {
  const statusCode = route.successStatus ?? 200;
  return routePipeline(route, async (event: Event): Promise<APIGatewayProxyResult> => {
    const state = stateOf(event);
    const result: unknown = await route.handler({ requestId: state.requestId }, state.input as never);
    if (route.contentType === undefined) {
      checkResponse(route, result);
      return finishResponse(route, state, { statusCode, headers: {}, body: JSON.stringify(result) });
    }
    const text = result as ServedText;
    checkResponse(route, text.body);
    return finishResponse(route, state, { statusCode, headers: { 'Content-Type': route.contentType }, body: text.body }, text.etag);
  });
}
