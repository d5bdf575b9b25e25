/**
 * Response compression as API Gateway applies it with minimumCompressionSize: a body of at least
 * that many bytes goes out compressed when the request's Accept-Encoding allows it, whatever the
 * route. Locally br is offered too. The ETag stays the one of the uncompressed representation
 * (as API Gateway leaves it), so If-None-Match and If-Match work whatever the encoding.
 */
import type http from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bytes; the same threshold the REST API is given in infra/constructs/api.ts. */
export const MIN_COMPRESSION_SIZE = 1024;

type Encoding = 'br' | 'gzip';

/** The encoding to use, from Accept-Encoding (a q=0 entry refuses one); br first when both fit. */
function negotiateEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const quality = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  return (['br', 'gzip'] as const).find((name) => quality(name) > 0);
}

/** Writes the response. `headers` is the caller's own object, made for this response: its length and encoding are added to it. */
export function writeResponse(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  const length = Buffer.byteLength(body, 'utf8');
  const encoding = length >= MIN_COMPRESSION_SIZE ? negotiateEncoding(request.headers['accept-encoding']) : undefined;
  if (!encoding) {
    // With the length known up front the body goes out in one write with the headers, not as
    // chunked encoding; a 204 or 304 has no body, and a length there would describe the
    // representation it stands for. The text as is: Node writes headers and text as one string.
    if (status !== 204 && status !== 304) headers['Content-Length'] = String(length);
    response.writeHead(status, headers);
    response.end(body);
    return;
  }
  const raw = Buffer.from(body, 'utf8');
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
      : gzipSync(raw);
  Object.assign(headers, { 'Content-Encoding': encoding, Vary: 'Accept-Encoding', 'Content-Length': String(compressed.length) });
  response.writeHead(status, headers);
  response.end(compressed);
}
