/**
 * Where GET /v1/openapi.json gets its document. On AWS the bundling step writes the generated
 * document next to the function's code (so that function does not bundle every route); locally and
 * in tests the gateway builds it from the route table it serves.
 */
import { readFile } from 'node:fs/promises';

type Source = () => Promise<Record<string, unknown>> | Record<string, unknown>;

export const OPENAPI_FILE = 'openapi.json';

let source: Source | undefined;
let cached: Record<string, unknown> | undefined;

export function setOpenApiSource(next: Source): void {
  source = next;
  cached = undefined;
}

export async function loadOpenApiDocument(): Promise<Record<string, unknown>> {
  if (!cached) {
    cached = source
      ? await source()
      : // Bundled, this module is the function's index.mjs, and the document sits beside it.
        (JSON.parse(await readFile(new URL(`./${OPENAPI_FILE}`, import.meta.url), 'utf8')) as Record<string, unknown>);
  }
  return cached;
}
