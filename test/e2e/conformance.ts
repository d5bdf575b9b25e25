/**
 * Holds the server to its own OpenAPI document: an openapi-fetch middleware that validates every
 * response the client receives against the operation's documented response for that status
 * (JSON Schema 2020-12 with ajv, strict, every $ref resolved inside the document). A status the
 * operation does not document, or a body its schema refuses, throws at the call, so a drift
 * between server and document fails the test that met it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';

interface MediaType {
  schema?: unknown;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | undefined>>;
  components: { schemas: Record<string, unknown> };
}

/** The components as one JSON Schema of $defs, which every response schema refers into. */
export const COMPONENTS_ID = 'components.json';
const COMPONENT_REF = '#/components/schemas/';

/** The document's `#/components/schemas/X` references, pointed at the $defs schema. */
export function pointAtDefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointAtDefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)
        ? `${COMPONENTS_ID}#/$defs/${inner.slice(COMPONENT_REF.length)}`
        : pointAtDefs(inner),
    ]),
  );
}

export function conformanceChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointAtDefs(document.components.schemas) });
  const validators = new Map<string, ValidateFunction>();
  let checked = 0;

  function check(method: string, schemaPath: string, status: number, contentType: string | null, body: string): void {
    const where = `${method} ${schemaPath} → ${status}`;
    const operation = document.paths[schemaPath]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${where}: no such operation in the document`);
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    checked += 1;
    if (status === 304) return;
    const mediaType = (contentType ?? '').split(';')[0].trim();
    if (!response.content?.[mediaType]) throw new Error(`${where}: ${mediaType} not documented`);
    if (mediaType !== 'application/json') return;
    const key = `${where} ${mediaType}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(pointAtDefs(response.content[mediaType].schema) as object);
      validators.set(key, validate);
    }
    if (!validate(JSON.parse(body)))
      throw new Error(
        `${where}: the body breaks the document: ${(validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`).join('; ')}\n${body.slice(0, 2000)}`,
      );
  }

  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      check(request.method, schemaPath, response.status, response.headers.get('content-type'), await response.clone().text());
      return undefined;
    },
  };
  return {
    middleware,
    check,
    /** How many responses were checked so far. */
    checked: () => checked,
  };
}
