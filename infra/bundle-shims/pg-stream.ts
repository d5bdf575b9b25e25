/**
 * Bundle stand-in for `pg/lib/stream.js`. pg picks its socket implementation when it loads: on a
 * runtime without `navigator` (Node 20) it probes for Cloudflare Workers by constructing a
 * `Response`, which makes Node load its whole fetch implementation (undici, 15–40 ms of a cold
 * start) for nothing. Lambda functions always run on Node, so this is pg's Node.js branch alone.
 *
 * `node:tls` is loaded by the first TLS connection, not with the bundle: it costs about 2.5 ms of
 * a cold start, which a connection without TLS (local, CI, `npm start`) never needs. On AWS the
 * connection to RDS Proxy is TLS, so there it moves from the import to the first connect.
 */
import net from 'node:net';
import type tls from 'node:tls';

export function getStream(): net.Socket {
  return new net.Socket();
}

export function getSecureStream(options: tls.ConnectionOptions): tls.TLSSocket {
  return process.getBuiltinModule('node:tls').connect(options);
}
