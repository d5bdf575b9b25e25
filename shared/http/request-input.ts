/**
 * A request's input: its JSON body (parsed by middy's JSON body parser, then checked for what no
 * schema should see and for raw card or bank data), then path parameters, the query (its `expand`
 * apart) and the body, each parsed by the route's zod schema (validation.ts turns the first issue
 * into the error envelope).
 */
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { ApiError } from '../errors';
import { acceptsDryRun, takeDryRunFlag } from './dry-run';
import { parseExpand } from './expand';
import { findRawCredentials } from './raw-credentials';
import type { PipelineRoute, RouteInput, RouteSchemas } from './route';
import type { InputStep, RequestState } from './route-pipeline';
import { checkInputValue, isArraySchema, MAX_BODY_BYTES, parseOrThrow } from './validation';

type Event = APIGatewayProxyEvent;

const NO_PATH_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({});
/** The query of a route that declares none: any parameter is unknown. */
const NO_QUERY = z.strictObject({});
/** The body member every route ignores: the entity comes from the API key only (not an error). */
export const IGNORED_BODY_MEMBER = 'entity_id';

/** What a body sent to a route without a body schema is checked against: no member is known. */
const NO_BODY_FIELDS = z.strictObject({});

/**
 * The query string as names and their values: the multi-value map, and the single-value map for
 * the names it lacks. A Map: a parameter named `__proto__` or `constructor` is an ordinary name.
 */
export function queryValues(event: Pick<Event, 'queryStringParameters' | 'multiValueQueryStringParameters'>): Map<string, string[]> {
  const multi = new Map<string, string[]>();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (values) multi.set(name, values);
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined && !multi.has(name)) multi.set(name, [value]);
  return multi;
}

/** The query string's `expand` values (`expand` and `expand[]`) apart from its other parameters. */
function separateExpand(values: ReadonlyMap<string, string[]>): { expand: string[]; parameters: Map<string, string[]> } {
  const expand: string[] = [];
  const parameters = new Map<string, string[]>();
  for (const [name, given] of values) {
    if (name === 'expand' || name === 'expand[]') expand.push(...given);
    else parameters.set(name, given);
  }
  return { expand, parameters };
}

/**
 * The query as one value per name (arrays for array members), as a prototype-less object: a
 * parameter named `__proto__`, `constructor` or `hasOwnProperty` is an ordinary unknown parameter.
 */
export function collectQuery(values: ReadonlyMap<string, string[]>, schema: z.ZodMiniObject): Record<string, unknown> {
  const query = Object.create(null) as Record<string, unknown>;
  for (const [givenName, given] of values) {
    const name = givenName.endsWith('[]') ? givenName.slice(0, -2) : givenName;
    const member = Object.hasOwn(schema.shape, name) ? (schema.shape[name] as z.ZodMiniType) : undefined;
    if (member && isArraySchema(member)) query[name] = [...((query[name] as string[] | undefined) ?? []), ...given];
    else if (given.length > 1 || Object.hasOwn(query, name)) throw new ApiError('parameter_invalid', { param: name, hint: `${name} takes a single value.` });
    else query[name] = given[0];
  }
  return query;
}

/** What the reader fills in on a request's state: the body is the parsed JSON the stack kept (rawBody). */
interface InputTarget {
  rawBody?: unknown;
  input?: RouteInput<unknown, unknown, unknown>;
  expand: string[];
  /** `?dry_run=true` on a write (dry-run.ts). */
  dryRun?: boolean;
}

/** The route's query schema refusing the names it does not declare (zod's catchall), its own checks kept. */
export function strictQuery(schema: z.ZodMiniObject): z.ZodMiniObject {
  return z.catchall(schema, z.never());
}

/** The reader of a route's requests: path, query (with `expand`) and body, checked, into the request's state. */
function inputReader(route: PipelineRoute): (event: Event, state: InputTarget) => void {
  // A public route's serving part declares none of them: it then takes no parameters and no body.
  const schemas = route as Omit<RouteSchemas, 'response'>;
  // Built once per route (zod compiles a schema on its first parse): the route's query schema, refusing unknown names.
  const querySchema = schemas.query ? strictQuery(schemas.query) : NO_QUERY;
  const takesDryRun = acceptsDryRun(route);
  return (event, state) => {
    // Their names are the route's placeholders; zod reads only the names its schema declares.
    const pathParameters = event.pathParameters ?? NO_PATH_PARAMETERS;
    checkInputValue(pathParameters);
    // A route without path parameters reads none: `z.object({})` would strip them all to `{}`.
    const params = schemas.params ? parseOrThrow(schemas.params, pathParameters) : {};
    // No query string and no query schema (most single-resource routes): nothing to check or parse.
    const noQuery = !schemas.query && !event.queryStringParameters && !event.multiValueQueryStringParameters;
    const values = noQuery ? undefined : queryValues(event);
    // Names and values checked as one object of own properties (fromEntries defines even
    // `__proto__`): no NUL, no lone surrogate, nothing over the length limit.
    if (values) checkInputValue(Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0] : given])));
    const { expand, parameters } = values ? separateExpand(values) : { expand: [], parameters: undefined };
    if (parameters && takesDryRun) state.dryRun = takeDryRunFlag(parameters);
    const query = parameters ? parseOrThrow(querySchema, collectQuery(parameters, querySchema)) : {};
    state.expand = route.auth === 'api_key' ? parseExpand(expand, route.expand, route.list === true) : parseExpand(expand, undefined, false);
    let body: unknown = undefined;
    if (schemas.body || state.rawBody !== undefined) {
      const raw = state.rawBody ?? {};
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        throw new ApiError('parameter_invalid', { hint: 'The request body must be a JSON object.' });
      }
      const { [IGNORED_BODY_MEMBER]: _ignored, ...rest } = raw as Record<string, unknown>;
      body = parseOrThrow(schemas.body ?? NO_BODY_FIELDS, rest);
    }
    state.input = { params, query, body };
  };
}

const parser = httpJsonBodyParser();

/** Parses, checks and keeps a request's body (called only when it has one). */
async function readJsonBody(event: Event, body: string, state: RequestState): Promise<void> {
  // The local gateway stops a large body while reading it; on AWS this is the first place to.
  if (Buffer.byteLength(body, event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) throw new ApiError('request_too_large');
  // The middy parser needs the content type under one of its two spellings.
  event.headers = { ...event.headers, 'content-type': state.headers['content-type'] };
  await parser.before!({ event } as never);
  // Depth, NUL, unpaired surrogates and string length first: nothing below walks a hostile body.
  checkInputValue(event.body);
  const credentials = findRawCredentials(event.body);
  if (credentials) {
    // Dropped here, before validation messages, the idempotency record or any log line can see it.
    event.body = null;
    throw new ApiError(credentials.kind === 'card' ? 'raw_card_data_refused' : 'raw_bank_data_refused', { param: credentials.path });
  }
  state.rawBody = event.body;
}

/** A route's input step (route-pipeline.ts): its JSON body when it has one, then its input. */
export function requestInput(route: PipelineRoute): InputStep {
  const validate = inputReader(route);
  return (event, state) => {
    const { body } = event;
    if (body === null || body === undefined || body === '') return validate(event, state);
    return readJsonBody(event, body, state).then(() => validate(event, state));
  };
}
