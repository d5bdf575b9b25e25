/**
 * The document's examples: the committed recording of real traffic (`npm run examples:record`),
 * and the error envelope each error response shows.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOG, errorKey, type ErrorCode } from '../errors';
import { errorAnchor } from '../public-url';
import { LOCAL_SERVER } from './openapi-source';

type JsonSchema = Record<string, unknown>;

/**
 * One operation's examples, recorded from real traffic (`npm run examples:record`): its path and
 * query parameters by name (an array parameter without its `[]`), its request body and its
 * success response body.
 */
export interface OperationExample {
  parameters?: Record<string, unknown>;
  request?: unknown;
  response?: unknown;
}
export type OperationExamples = Record<string, OperationExample>;

/** The committed examples (shared/http/openapi-examples.json), by operation id. */
export function recordedExamples(): OperationExamples {
  return JSON.parse(readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as OperationExamples;
}

/** The error each status's responses show as their example: the commonest code of that status. */
export const ERROR_EXAMPLE_PREFERENCE: ErrorCode[] = [
  'parameter_invalid',
  'api_key_invalid',
  'insufficient_scope',
  'not_found',
  'rate_limit_exceeded',
  'internal_error',
];

/** The envelope the server sends for `code`, as the document's example of it. */
export function errorEnvelopeExample(code: ErrorCode): JsonSchema {
  return {
    summary: code,
    value: {
      error: errorKey(code),
      code,
      type: ERROR_CATALOG[code].type,
      hint: ERROR_CATALOG[code].hint,
      // The placeholder server's page; each deployment's envelopes name its own.
      doc_url: `${LOCAL_SERVER.url}/docs#${errorAnchor(code)}`,
      request_id: '2f6c1d0e-8b4a-4f7e-9c53-7a1e0b9d4c21',
    },
  };
}

/** A uuid, as clients make their Idempotency-Keys, stable per operation. */
export function idempotencyKeyExample(operationId: string): string {
  const hex = createHash('sha256').update(`idempotency-key:${operationId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
