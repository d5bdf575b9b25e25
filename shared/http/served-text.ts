/**
 * A large text a public route serves as it is (the OpenAPI document, Redoc's script), with its
 * ETag. Hashing 1.7 MB took about 8 ms of a cold start's first request, so the bundling step
 * writes each such file's ETag beside it (`<file>.etag`, servedTextFiles) and the function reads
 * both; run from source (npm start, tests) there is no beside file and the ETag is computed once.
 */
import { readFileSync } from 'node:fs';
import { etagOf } from './etag';

export interface ServedText {
  body: string;
  etag: string;
}

const ETAG_SUFFIX = '.etag';

/** The files the bundling step writes for a served text: the text and its ETag. */
export function servedTextFiles(name: string, body: string): Record<string, string> {
  return { [name]: body, [`${name}${ETAG_SUFFIX}`]: etagOf(body) };
}

/** A text with its ETag computed here: for a text built at run time, or read where no ETag was written beside it. */
export function servedText(body: string): ServedText {
  return { body, etag: etagOf(body) };
}

/**
 * A served text read from a file, with the ETag written beside it when there is one. Read at once
 * and decoded in one call: fs/promises' readFile with an encoding decodes chunk by chunk, and its
 * file handle costs a trip to the thread pool each way; this runs once per cold start, in a
 * function that serves one request at a time.
 */
export function readServedText(path: string, options: { etagBeside: boolean }): ServedText {
  const body = readFileSync(path).toString('utf8');
  if (!options.etagBeside) return servedText(body);
  return { body, etag: readFileSync(`${path}${ETAG_SUFFIX}`, 'latin1').trim() };
}

/**
 * JSON as ASCII: every other character written as its \u escape, which JSON readers decode to the
 * same value. V8 decodes ASCII bytes about three times as fast as a text with a few accented or
 * typographic characters (3 ms against 8 ms for the OpenAPI document).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
