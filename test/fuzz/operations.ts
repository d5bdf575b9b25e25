/**
 * The fuzzer's view of the API: every operation of the OpenAPI document the API serves (GET
 * /v1/openapi.json, built by buildOpenApiDocument over the route table), with its path, query and
 * body schemas. Nothing here reads the route modules: what integrators are told is what gets fuzzed.
 */
import { assertKnownKeywords, type JsonSchema } from './schema-arbitrary';

interface Parameter {
  /** As documented: array parameters end in `[]` (`expand[]`). */
  name: string;
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
  id: string;
  method: string;
  /** The path template, `/v1/orders/{id}`. */
  path: string;
  auth: boolean;
  pathParams: Parameter[];
  query: Parameter[];
  body?: JsonSchema;
  idempotencyKey: boolean;
  ifMatch: boolean;
}

interface OpenApiOperation {
  operationId: string;
  security: unknown[];
  parameters: (Parameter & { in: string })[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

/** A schema, or the component it refers to (a body with no parameters is `$ref: EmptyBody`). */
function resolved(document: Record<string, unknown>, schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (!ref) return schema;
  const components = (document.components as { schemas: Record<string, JsonSchema> }).schemas;
  return components[ref.replace('#/components/schemas/', '')];
}

export function operationsOf(document: Record<string, unknown>): Operation[] {
  const paths = document.paths as Record<string, Record<string, OpenApiOperation>>;
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const inLocation = (location: string) =>
        operation.parameters.filter((parameter) => parameter.in === location).map(({ name, schema, required }) => ({ name, schema, required }));
      const body = resolved(document, operation.requestBody?.content['application/json'].schema);
      for (const parameter of [...inLocation('path'), ...inLocation('query')])
        assertKnownKeywords(parameter.schema, `${operation.operationId} ${parameter.name}`);
      if (body) assertKnownKeywords(body, `${operation.operationId} body`);
      out.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        auth: operation.security.length > 0,
        pathParams: inLocation('path'),
        query: inLocation('query'),
        body,
        idempotencyKey: inLocation('header').some((parameter) => parameter.name === 'Idempotency-Key'),
        ifMatch: inLocation('header').some((parameter) => parameter.name === 'If-Match'),
      });
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
