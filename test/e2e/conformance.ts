/**
 * Holds the server to its own OpenAPI document: an openapi-fetch middleware that validates every
 * response the client receives against the operation's documented response for that status
 * (JSON Schema 2020-12 with ajv, strict, every $ref resolved inside the document). A status the
 * operation does not document, or a body its schema refuses, throws at the call, so a drift
 * between server and document fails the test that met it.
 *
 * Requests are held to the document too: each request's path and query parameters and body are
 * validated against the operation before it is sent, and its answer must agree with that verdict.
 * A request the document allows must not be refused as malformed (400 invalid_json or
 * parameter_*, 415), and a request it refuses must not succeed. Every answer of the local stage
 * carries the RateLimit headers the document declares, and a 429's Retry-After equals its
 * RateLimit-Reset.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';
import { amount, DECIMAL_PLACES_KEYWORD } from '../../shared/money';

/**
 * The document's own keyword: a JSON number has at most this many decimal places, read from its
 * shortest decimal text as the server reads it (never float division, which `multipleOf` is).
 */
export function addDocumentKeywords(ajv: Ajv2020): Ajv2020 {
  return ajv.addKeyword({
    keyword: DECIMAL_PLACES_KEYWORD,
    type: 'number',
    schemaType: 'number',
    validate: (places: number, data: number) => Number.isFinite(data) && amount(data).decimalPlaces() <= places,
  });
}

interface MediaType {
  schema?: unknown;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: unknown;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType>; headers?: Record<string, unknown> }>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
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
  const ajv = addDocumentKeywords(new Ajv2020({ strict: true, allErrors: true }));
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

  // Parameters arrive as text: their schemas are applied as a server reads them, numbers and
  // booleans coerced, a single value of an array parameter as an array of one.
  const coercing = addDocumentKeywords(new Ajv2020({ strict: true, allErrors: true, coerceTypes: 'array' }));
  addFormats(coercing);
  coercing.addSchema({ $id: COMPONENTS_ID, $defs: pointAtDefs(document.components.schemas) });
  const requestValidators = new Map<Ajv2020, Map<unknown, ValidateFunction>>([
    [ajv, new Map()],
    [coercing, new Map()],
  ]);
  const compiled = (engine: Ajv2020, schema: unknown) => {
    const cache = requestValidators.get(engine)!;
    let validate = cache.get(schema);
    if (!validate) {
      validate = engine.compile(pointAtDefs(schema) as object);
      cache.set(schema, validate);
    }
    return validate;
  };
  const explain = (validate: ValidateFunction) => (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');

  /** What the document says is wrong with a request: nothing (an empty list) when it allows it. */
  function requestProblems(method: string, schemaPath: string, url: URL, pathParams: Record<string, unknown>, body: string): string[] {
    const operation = document.paths[schemaPath]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${schemaPath}: no such operation in the document`];
    const problems: string[] = [];
    const declared = operation.parameters ?? [];
    const query = new Map<string, string[]>();
    for (const [name, value] of url.searchParams) query.set(name, [...(query.get(name) ?? []), value]);
    for (const name of query.keys())
      if (!declared.some((parameter) => parameter.in === 'query' && parameter.name === name)) problems.push(`query ${name} is not declared`);
    for (const parameter of declared) {
      if (parameter.in !== 'query' && parameter.in !== 'path') continue;
      const values =
        parameter.in === 'query' ? query.get(parameter.name) : pathParams[parameter.name] === undefined ? undefined : [String(pathParams[parameter.name])];
      if (values === undefined) {
        if (parameter.required) problems.push(`${parameter.in} ${parameter.name} is required`);
        continue;
      }
      // A root value is coerced for validation too (ajv: the variable itself is not updated).
      const validate = compiled(coercing, parameter.schema);
      const value = (parameter.schema as { type?: string }).type === 'array' ? values : values[values.length - 1];
      if (!validate(value)) problems.push(`${parameter.in} ${parameter.name}: ${explain(validate)}`);
    }
    const schema = operation.requestBody?.content['application/json']?.schema;
    if (body === '') {
      if (operation.requestBody?.required) problems.push('the body is required');
    } else if (!schema) problems.push('the document declares no body');
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      const validate = compiled(ajv, schema);
      if (!validate(parsed)) problems.push(`body: ${explain(validate)}`);
    }
    return problems;
  }

  /** Refusals that say a request is malformed: the document must have said so first. */
  const MALFORMED = new Set(['invalid_json', 'parameter_invalid', 'parameter_missing', 'parameter_unknown', 'unsupported_media_type']);
  const verdicts = new Map<string, string[]>();
  let requestsChecked = 0;

  function checkAgreement(where: string, problems: string[], status: number, body: string): void {
    requestsChecked += 1;
    let code: unknown;
    try {
      code = (JSON.parse(body) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    if (problems.length === 0 && status >= 400 && status < 500 && MALFORMED.has(String(code)))
      throw new Error(`${where}: refused as ${String(code)} though the document allows the request: ${body.slice(0, 1000)}`);
    if (problems.length > 0 && status < 300) throw new Error(`${where}: succeeded though the document refuses the request: ${problems.join('; ')}`);
  }

  const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

  function checkRateLimitHeaders(where: string, method: string, schemaPath: string, status: number, headers: Headers): void {
    const declared = document.paths[schemaPath]?.[method.toLowerCase()]?.responses[String(status)]?.headers ?? {};
    const value = (name: string) => {
      if (!(name in declared)) throw new Error(`${where}: the document does not declare ${name}`);
      const text = headers.get(name);
      if (text === null || !/^\d+$/.test(text)) throw new Error(`${where}: ${name} is ${String(text)}, not a whole number of the local stage`);
      return Number(text);
    };
    const [limit, remaining, reset] = RATE_LIMIT_HEADERS.map(value);
    if (remaining > limit) throw new Error(`${where}: RateLimit-Remaining ${remaining} over RateLimit-Limit ${limit}`);
    if (status === 429 && Number(headers.get('Retry-After')) !== reset)
      throw new Error(`${where}: Retry-After ${headers.get('Retry-After')} is not RateLimit-Reset ${reset}`);
  }

  const middleware: Middleware = {
    async onRequest({ request, schemaPath, params, id }) {
      const body = request.body ? await request.clone().text() : '';
      verdicts.set(id, requestProblems(request.method, schemaPath, new URL(request.url), params.path ?? {}, body));
      return undefined;
    },
    async onResponse({ request, response, schemaPath, id }) {
      const text = await response.clone().text();
      check(request.method, schemaPath, response.status, response.headers.get('content-type'), text);
      const where = `${request.method} ${schemaPath} → ${response.status}`;
      checkRateLimitHeaders(where, request.method, schemaPath, response.status, response.headers);
      const problems = verdicts.get(id);
      verdicts.delete(id);
      if (problems) checkAgreement(where, problems, response.status, text);
      return undefined;
    },
  };
  return {
    middleware,
    check,
    /** How many responses were checked so far. */
    checked: () => checked,
    /** How many requests were held to the document so far (each with its answer). */
    requestsChecked: () => requestsChecked,
    /** What the document says is wrong with a request (empty when it allows it). */
    requestProblems,
  };
}
