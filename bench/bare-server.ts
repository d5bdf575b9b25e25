/**
 * The floor of bench/http-throughput.ts: a minimal `node:http` + `pg` server with no framework,
 * answering `GET /v1/locations/{id}` with the very statements the API sends for it. The statements
 * are captured from the API itself (written to a file by the benchmark), so they cannot drift:
 *
 *   key lookup   the authorizer's transaction (BEGIN + role, the key query by SHA-256 hash, COMMIT),
 *                cached per Authorization value for the same TTL as the local gateway's authorizer cache
 *   the GET      BEGIN READ ONLY + set_config(role, entity), the SELECT, COMMIT, then JSON
 *
 * It runs with the local server's V8 settings (local/v8-tuning.ts, its first import, as in
 * local/server.ts), so the comparison measures the framework, not a difference in tuning.
 *
 * Run by the benchmark in its own process:
 *   BARE_STATEMENTS=<file> DATABASE_URL=... PORT=... AUTH_CACHE_TTL_MS=... node --import tsx bench/bare-server.ts
 */
import '../local/v8-tuning';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

export interface CapturedStatement {
  text: string;
  values?: unknown[];
}

/** What the benchmark captured from the API: statements plus the values to substitute per request. */
export interface BareStatements {
  authenticate: CapturedStatement[];
  get: CapturedStatement[];
  /** The captured key hash (a value of the key lookup), replaced by the request's key hash. */
  keyHash: string;
  /** The captured entity id (in the GET's BEGIN batch), replaced by the key's entity. */
  entityId: string;
  /** The captured location id (a value of the SELECT), replaced by the path's id. */
  locationId: string;
}

const substitute = (value: unknown, from: string, to: string): unknown => (value === from ? to : value);

function main(): void {
  const statements = JSON.parse(readFileSync(process.env.BARE_STATEMENTS!, 'utf8')) as BareStatements;
  const cacheTtlMs = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
  const keys = new Map<string, { entityId: string; expires: number }>();
  const route = /^\/v1\/locations\/([^/?#]+)$/;

  async function run(list: CapturedStatement[], replace: (value: unknown) => unknown, text: (sql: string) => string = (sql) => sql) {
    const client = await pool.connect();
    let rows: Record<string, unknown>[] = [];
    try {
      for (const statement of list) {
        const result = await client.query(text(statement.text), statement.values?.map(replace));
        // A simple-protocol batch answers an array of results; the SELECT answers one.
        if (!Array.isArray(result) && result.rows.length) rows = result.rows as Record<string, unknown>[];
      }
      client.release();
      return rows;
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  async function entityOf(header: string): Promise<string | undefined> {
    const cached = keys.get(header);
    if (cached && cached.expires > Date.now()) return cached.entityId;
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const hash = createHash('sha256').update(token).digest('hex');
    const [row] = await run(statements.authenticate, (value) => substitute(value, statements.keyHash, hash));
    if (!row || row.revoked || row.expired) return undefined;
    const entityId = String(row.entity_id);
    if (cacheTtlMs > 0) keys.set(header, { entityId, expires: Date.now() + cacheTtlMs });
    return entityId;
  }

  const send = (response: http.ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  };

  const server = http.createServer((request, response) => {
    void (async () => {
      try {
        const id = route.exec(request.url ?? '')?.[1];
        if (request.method !== 'GET' || !id) return send(response, 404, '{"code":"route_not_found"}');
        const entityId = request.headers.authorization ? await entityOf(request.headers.authorization) : undefined;
        if (!entityId) return send(response, 401, '{"code":"api_key_invalid"}');
        const [row] = await run(
          statements.get,
          (value) => substitute(value, statements.locationId, id),
          (sql) => sql.replaceAll(statements.entityId, entityId),
        );
        if (!row) return send(response, 404, '{"code":"resource_missing"}');
        send(response, 200, JSON.stringify({ ...row, livemode: false }));
      } catch (error) {
        console.error(error);
        send(response, 500, '{"code":"internal_error"}');
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const address = server.address();
    console.log(`bare server listening on ${typeof address === 'object' && address ? address.port : address}`);
  });
  const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
