/**
 * The client's types from the OpenAPI document, with openapi-typescript: what
 * `npm run client:generate` writes to client/schema.d.ts, and what the test that keeps that file
 * current compares it with.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER = `/**
 * Generated from the OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\`.
 */

`;

export async function schemaTypesOf(document: Record<string, unknown>): Promise<string> {
  return HEADER + astToString(await openapiTS(document as unknown as OpenAPI3));
}
