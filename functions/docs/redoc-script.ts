/**
 * The reference page's renderer: Redoc's standalone bundle from the `redoc` npm package, served
 * by the API itself (no CDN). At about 1.1 MB it could never be a function's code (each function
 * ships under 450 KB of JS), so it travels as a plain file: the bundling step copies it beside
 * the docs script function's index.mjs (infra/functions.ts), and the function reads it (and its ETag)
 * once per cold start. Run from source (npm start, tests) there is no such file and it is read from
 * node_modules instead.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readServedText, type ServedText } from '../../shared/http/served-text';

export const REDOC_SCRIPT_FILE = 'redoc.standalone.js';

/** Where the package keeps the bundle, resolved from node_modules. */
export function redocScriptInPackage(): string {
  return createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
}

let cached: Promise<ServedText> | undefined;

export function loadRedocScript(): Promise<ServedText> {
  cached ??= (() => {
    const beside = fileURLToPath(new URL(`./${REDOC_SCRIPT_FILE}`, import.meta.url));
    // Bundled, the script sits beside the function with its ETag (infra/functions.ts).
    return Promise.resolve(existsSync(beside) ? readServedText(beside, { etagBeside: true }) : readServedText(redocScriptInPackage(), { etagBeside: false }));
  })();
  return cached;
}
