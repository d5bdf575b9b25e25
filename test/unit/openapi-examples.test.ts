/**
 * Issue 42 row 8: every operation of the document shows realistic examples (recorded from real
 * traffic by `npm run examples:record`) for its path and query parameters, its request body and
 * its success response, and each one validates against its schema as the document's consumers
 * (Ajv, Prism, Dredd) validate it.
 */
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import type { z } from 'zod/mini';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../../shared/errors';
import { collectQuery, strictQuery } from '../../shared/http/request-input';
import { parseOrThrow } from '../../shared/http/validation';
import { ERROR_STATUS } from '../../shared/http/error-status';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { recordedExamples } from '../../shared/http/openapi-examples';
import { addDocumentKeywords, COMPONENTS_ID, pointAtDefs } from '../e2e/conformance';
import { missingExamples, type DocumentOperation } from '../examples/examples';

type Schema = Record<string, unknown>;
const document = buildOpenApiDocument(ROUTES) as {
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { schemas: Record<string, Schema>; examples: Record<string, { value: { code: ErrorCode } }> };
};
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
/** A query example as the query string carries it: strings as they are, numbers and booleans as JSON writes them. */
const asQueryValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const ajv = addDocumentKeywords(new Ajv2020({ strict: true, allErrors: true }));
addFormats(ajv);
ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointAtDefs(document.components.schemas) });

/** The example's errors against `schema`, one line each; none when it validates. */
function violations(schema: Schema, example: unknown): string[] {
  const validate = ajv.compile(pointAtDefs(schema) as Schema);
  return validate(example) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}

describe('the OpenAPI examples (issue 42 row 8)', () => {
  it('cover every path and query parameter, request body and success response of every operation', () => {
    const missing = missingExamples(document);
    expect(
      missing,
      `operations without examples: run the test file that calls them with \`npm run examples:record -- <test file>\` (docs/contributing.md)`,
    ).toEqual([]);
  });

  it('are all of operations of the route table', () => {
    const ids = new Set(ROUTES.map((route) => route.id));
    expect(Object.keys(recordedExamples()).filter((id) => !ids.has(id))).toEqual([]);
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))('%s: every example validates against its schema', (_id, operation) => {
    const problems: string[] = [];
    for (const parameter of operation.parameters)
      if (parameter.example !== undefined)
        problems.push(...violations(parameter.schema, parameter.example).map((line) => `parameter ${parameter.name}: ${line}`));
    const body = operation.requestBody?.content['application/json'];
    if (body?.example !== undefined) problems.push(...violations(body.schema, body.example).map((line) => `request: ${line}`));
    for (const [status, response] of Object.entries(operation.responses)) {
      const json = response.content?.['application/json'];
      if (json?.example !== undefined) problems.push(...violations(json.schema!, json.example).map((line) => `response ${status}: ${line}`));
    }
    expect(problems).toEqual([]);
  });

  it("are accepted together: a tool that sends every query parameter's example gets no parameter error", () => {
    const refused: string[] = [];
    for (const route of ROUTES.filter((candidate) => candidate.query !== undefined)) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      const values = new Map<string, string[]>();
      for (const parameter of operation.parameters)
        if (parameter.in === 'query' && parameter.example !== undefined && parameter.name !== 'expand[]')
          values.set(parameter.name, (Array.isArray(parameter.example) ? parameter.example : [parameter.example]).map(asQueryValue));
      const strict = strictQuery(route.query as z.ZodMiniObject);
      try {
        parseOrThrow(strict, collectQuery(values, strict));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refused.push(`${route.id}: ${error.code} ${error.options.param ?? ''}`);
      }
    }
    expect(refused).toEqual([]);
    // The lists refuse starting_after with ending_before (a 400 on ending_before) when they page, after the query parses.
    const bothCursors = operations.filter((operation) =>
      ['starting_after', 'ending_before'].every((name) => operation.parameters.some((parameter) => parameter.name === name && parameter.example !== undefined)),
    );
    expect(bothCursors.map((operation) => operation.operationId)).toEqual([]);
  });

  it('show on each error response the envelope of one of its codes, as the server sends it', () => {
    for (const [name, { value }] of Object.entries(document.components.examples)) {
      expect(violations({ $ref: '#/components/schemas/Error' }, value), name).toEqual([]);
      expect(value).toMatchObject({ code: name, hint: ERROR_CATALOG[value.code].hint });
    }
    for (const operation of operations)
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const examples = (response.content?.['application/json'] as { examples?: Record<string, { $ref: string }> }).examples ?? {};
        const [code] = Object.keys(examples) as ErrorCode[];
        expect(ERROR_STATUS[code], `${operation.operationId} ${status}`).toBe(Number(status));
        expect(examples[code].$ref).toBe(`#/components/examples/${code}`);
      }
  });
});
