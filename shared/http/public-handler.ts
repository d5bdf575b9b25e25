/**
 * The Lambda handler of a public route (no API key: the OpenAPI document, the reference page and
 * its script). The same pipeline as every route (route-pipeline.ts) around a core that only calls
 * the handler: no transaction, no idempotency, no events, so the bundle carries no data layer.
 * A route with a `contentType` returns its text with the ETag it knows (served-text.ts).
 *
 * A public route takes no input, and a request for it brings none: its input step then has
 * nothing to read. A request that does bring some (a query, a body, path parameters) is read as
 * every route's is (request-input.ts, with zod), loaded by the first such request from a chunk of
 * its own (infra/bundle.ts), so the function's cold start neither compiles nor evaluates zod.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { RouteInvocation } from './observe';
import type { PublicServing } from './route';
import { checkResponse, finishResponse, routePipeline, stateOf, type Event, type InputStep } from './route-pipeline';
import type { ServedText } from './served-text';

const hasMembers = (value: object | null | undefined): boolean => value !== null && value !== undefined && Object.keys(value).length > 0;

/** Whether a request brings input: a body, a query string or path parameters. */
function bringsInput(event: Event): boolean {
  const { body } = event;
  return (
    (body !== null && body !== undefined && body !== '') ||
    hasMembers(event.queryStringParameters) ||
    hasMembers(event.multiValueQueryStringParameters) ||
    hasMembers(event.pathParameters)
  );
}

/** The input step of a public route: nothing to read, or the whole reader for a request that brings input. */
function publicInput(route: PublicServing): InputStep {
  let reader: Promise<InputStep> | undefined;
  return (event, state) => {
    if (!bringsInput(event)) {
      state.input = { params: {}, query: {}, body: undefined };
      return;
    }
    reader ??= import('./request-input').then(({ requestInput }) => requestInput(route));
    return reader.then((read) => read(event, state));
  };
}

export function publicHandler(route: PublicServing): RouteInvocation {
  const statusCode = route.successStatus ?? 200;
  return routePipeline(route, publicInput(route), async (event: Event): Promise<APIGatewayProxyResult> => {
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
