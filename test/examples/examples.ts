/**
 * From recorded exchanges to the document's examples (test/examples/record.ts), and what the
 * document still lacks (test/unit/openapi-examples.test.ts).
 *
 * One exchange per operation gives the path parameters, request and response; each query
 * parameter takes the first value any recorded call of the operation sent, else a value of the
 * recorded response (a list's first id for starting_after, an item's own field for a filter of
 * that name). Ids, API keys and entity codes are then replaced by stable-looking values, the
 * same value for the same id throughout one operation's examples, so a path parameter still
 * names the record its response shows.
 */
import { createHash } from 'node:crypto';
import type { Route } from '../../shared/http/route';
import type { OperationExample } from '../../shared/http/openapi-examples';
import type { RecordedExchange } from '../support/example-tap';

type Json = unknown;
type Schema = Record<string, unknown>;

interface DocumentParameter {
  name: string;
  in: string;
  schema: Schema;
  example?: Json;
}
export interface DocumentOperation {
  operationId: string;
  parameters: DocumentParameter[];
  requestBody?: { content: Record<string, { schema: Schema; example?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema; example?: Json }> }>;
}

/** A list answer shows this many of its items. */
const LIST_ITEMS_SHOWN = 2;
/** Operations whose success answer is not shown by example: the document itself (the reference page is HTML). */
export const RESPONSE_EXAMPLE_EXEMPT = new Set(['platform.openapi']);

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
const listItems = (response: Json): Record<string, Json>[] | undefined =>
  isObject(response) && Array.isArray(response.data) ? (response.data as Record<string, Json>[]) : undefined;

/** The operations' parameters, bodies and responses that have no example, one line each. */
export function missingExamples(document: Record<string, unknown>): string[] {
  const missing: string[] = [];
  for (const methods of Object.values(document.paths as Record<string, Record<string, DocumentOperation>>)) {
    for (const operation of Object.values(methods)) {
      const id = operation.operationId;
      const pagesForward = operation.parameters.some((parameter) => parameter.name === 'starting_after' && parameter.example !== undefined);
      for (const parameter of operation.parameters)
        if ((parameter.in === 'path' || parameter.in === 'query') && parameter.example === undefined && !(pagesForward && parameter.name === 'ending_before'))
          missing.push(`${id}: ${parameter.in} parameter ${parameter.name}`);
      const body = operation.requestBody?.content['application/json'];
      if (body && body.example === undefined) missing.push(`${id}: request body`);
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const json = success?.[1].content?.['application/json'];
      if (json && json.example === undefined && !RESPONSE_EXAMPLE_EXEMPT.has(id)) missing.push(`${id}: response ${success?.[0]}`);
    }
  }
  return missing.sort();
}

/** The exchange an operation is shown by: a list with items, a call with a body, else the first. */
function chosenExchange(exchanges: RecordedExchange[]): RecordedExchange {
  const scored = exchanges.map((exchange, index) => {
    let score = 0;
    const items = listItems(exchange.response);
    if (items && items.length > 0) score += 2;
    if (isObject(exchange.body) && Object.keys(exchange.body).length > 0) score += 1;
    return { exchange, score, index };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored[0].exchange;
}

function pathParameters(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.split('/');
  const out: Record<string, string> = {};
  names.forEach((segment, index) => {
    if (segment.startsWith('{')) out[segment.slice(1, -1)] = decodeURIComponent(values[index]);
  });
  return out;
}

function schemaTypes(schema: Schema): string[] {
  const alternatives = [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as Schema[])];
  return alternatives.flatMap((alternative): string[] => {
    const type = alternative.type as string | string[] | undefined;
    return Array.isArray(type) ? type : type ? [type] : [];
  });
}

/** A query value as the parameter's schema types it (query strings carry text). */
function typed(value: Json, schema: Schema): Json {
  const types = schemaTypes(schema);
  if (types.includes('array')) {
    const items = (schema.items ?? {}) as Schema;
    return (Array.isArray(value) ? value : [value]).map((item) => typed(item, items));
  }
  if (Array.isArray(value)) return typed(value[0], schema);
  // A response's true or 10 as the query text a string parameter takes.
  if ((typeof value === 'boolean' || typeof value === 'number') && types.length > 0 && types.every((type) => type === 'string')) return String(value);
  if (typeof value === 'string') {
    if ((types.includes('integer') || types.includes('number')) && !types.includes('string') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    if (types.includes('boolean') && !types.includes('string') && (value === 'true' || value === 'false')) return value === 'true';
  }
  if (typeof value === 'string' && schema.format === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
  return value;
}

/** The first value each field name holds in any recorded response (objects at any depth). */
export type FieldValues = Map<string, Json>;

export function fieldValues(responses: Json[]): FieldValues {
  const out: FieldValues = new Map();
  const visit = (value: Json): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value))
      for (const [key, inner] of Object.entries(value)) {
        if (inner !== null && typeof inner !== 'object' && !out.has(key)) out.set(key, inner);
        else visit(inner);
      }
  };
  responses.forEach(visit);
  return out;
}

/** Values for a query parameter off the operation's own responses, then any recorded response, likeliest first. */
function* fromResponses(name: string, responses: Json[], fields: FieldValues): Generator<Json> {
  const items = responses.flatMap((response) => listItems(response) ?? (isObject(response) ? [response] : []));
  if (name === 'starting_after') yield items[0]?.id;
  if (name === 'ending_before') yield items[items.length - 1]?.id;
  if (name === 'limit' || name === 'page_size') yield 10;
  if (name === 'page') yield 1;
  const base = name.replace(/(_gte|_lte|\[gte\]|\[lte\])$/, '');
  for (const item of items) {
    for (const field of [name, base, `${base}_at`, `${base}_date`, `${base}_id`]) {
      const value = item[field];
      if (value !== undefined && value !== null && !isObject(value)) yield value;
    }
    if (name === 'q' && typeof item.name === 'string') yield item.name.split(' ')[0];
    if (name === 'types' && typeof item.type === 'string') yield [item.type];
  }
  for (const field of [name, `${base}_at`, `${base}_date`]) if (fields.has(field)) yield fields.get(field);
}

/** A last resort for a query parameter: the first value of its enumeration, or true. */
function fromSchema(schema: Schema): Json {
  const types = schemaTypes(schema);
  const enumeration = (schema.enum ?? ((schema.items as Schema | undefined)?.enum as Json[] | undefined)) as Json[] | undefined;
  if (enumeration?.length) return types.includes('array') ? [enumeration[0]] : enumeration[0];
  if (types.includes('boolean')) return true;
  return undefined;
}

/** The examples of one operation, from its recorded exchanges. */
/** Whether a value validates against a parameter's schema. */
export type Fits = (value: Json, schema: Schema) => boolean;

export function exampleOf(route: Route, operation: DocumentOperation, exchanges: RecordedExchange[], fields: FieldValues, fits: Fits): OperationExample {
  const chosen = chosenExchange(exchanges);
  const parameters: Record<string, Json> = { ...pathParameters(route.path, chosen.path) };
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
    const name = parameter.name.replace(/\[\]$/, '');
    if (name === 'expand') continue; // the document shows one of its values
    // What the shown call sent; else what its response shows (so the filter matches the items);
    // else what another call sent (often an edge case of its test); else the schema's first value.
    const sentBy = (exchange: RecordedExchange) => exchange.query[name] ?? exchange.query[parameter.name];
    const candidates = (function* () {
      yield sentBy(chosen);
      yield* fromResponses(
        name,
        [chosen, ...exchanges].map((exchange) => exchange.response),
        fields,
      );
      for (const exchange of exchanges) yield sentBy(exchange);
      yield fromSchema(parameter.schema);
    })();
    for (const candidate of candidates) {
      if (candidate === undefined) continue;
      const value = typed(candidate, parameter.schema);
      if (!fits(value, parameter.schema)) continue;
      parameters[name] = value;
      break;
    }
  }
  const items = listItems(chosen.response);
  const response = items ? { ...(chosen.response as object), data: items.slice(0, LIST_ITEMS_SHOWN) } : chosen.response;
  const hasBody = operation.requestBody !== undefined && chosen.body !== undefined;
  return normalised(route.id, { parameters, ...(hasBody && { request: chosen.body }), response });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const API_KEY = /bo_(live|test)_ent_([a-z0-9]{2,32})_([A-Za-z0-9]{32}|\.\.\.[A-Za-z0-9]{4})/g;
/** The entity code examples show, for the random codes of test entities. */
const EXAMPLE_ENTITY_CODE = 'acme';

/** Stable-looking values for the run's random ids, keys and local addresses. */
function normalised(operationId: string, example: OperationExample): OperationExample {
  const digest = (seed: string) => createHash('sha256').update(`${operationId}:${seed}`).digest('hex');
  const ids = new Map<string, string>();
  const fakeId = (id: string) => {
    const key = id.toLowerCase();
    if (!ids.has(key)) {
      const hex = digest(`id:${ids.size}`);
      // The id's time and version as recorded (the server's ids are version 7: time-ordered),
      // its random part made anew.
      ids.set(key, `${key.slice(0, 15)}${hex.slice(0, 3)}-${'89ab'[parseInt(hex[3], 16) % 4]}${hex.slice(4, 7)}-${hex.slice(7, 19)}`);
    }
    return ids.get(key)!;
  };
  const codes = new Set<string>();
  const collect = (value: Json): void => {
    if (typeof value === 'string') for (const match of value.matchAll(API_KEY)) codes.add(match[2]);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value)) Object.values(value).forEach(collect);
  };
  collect(example);
  const base62 = (seed: string, length: number) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = createHash('sha256').update(`${operationId}:${seed}`).digest();
    return Array.from({ length }, (_, index) => alphabet[bytes[index % bytes.length] % 62]).join('');
  };
  const rewrite = (text: string): string => {
    let out = text
      .replace(API_KEY, (_whole, mode: string, _code: string, secret: string) =>
        secret.startsWith('...')
          ? `bo_${mode}_ent_${EXAMPLE_ENTITY_CODE}_...${base62(secret, 4)}`
          : `bo_${mode}_ent_${EXAMPLE_ENTITY_CODE}_${base62(secret, 32)}`,
      )
      .replace(UUID, fakeId)
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://localhost:3000');
    // The test harness's entity codes (t + 10 hex digits + a counter), wherever one stands alone.
    if (codes.has(out) || /^t[0-9a-f]{10}[0-9a-z]{0,4}$/.test(out)) out = EXAMPLE_ENTITY_CODE;
    return out;
  };
  const walk = (value: Json): Json => {
    if (typeof value === 'string') return rewrite(value);
    if (Array.isArray(value)) return value.map(walk);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    return value;
  };
  return walk(example) as OperationExample;
}
