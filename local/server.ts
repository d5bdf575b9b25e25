/**
 * `npm start`: the whole API on this machine, on embedded defaults.
 *
 *   PORT (3000)            where the API listens
 *   DATABASE_URL           a real PostgreSQL instead of the embedded one
 *   DATA_DIR (.data)       where the embedded database, idempotency records and demo key live
 *   ACCEPTED_KEY_MODES     live,test (default) or test, as on the sandbox stage
 *   PUBLIC_BASE_URL        the root the API is reached at (http://localhost:<PORT>): the document's
 *                          server and the error envelopes' doc_url
 *   AUTHORIZER_CACHE_TTL_SECONDS (60)  how long an authorizer result is reused per key, as API Gateway
 *                          does (the stages' TTL); a revoked key keeps working until then, there as here. 0: none
 *   VALIDATE_RESPONSES     1: check every response against its schema (as the tests do); off by default
 *   WEBHOOK_URL_ALLOWLIST (localhost,127.0.0.1,[::1])  hosts webhook endpoints may use over http, past
 *                          the address rules: by default the loopback receivers, so deliveries can be watched here
 */
import './local-environment';
import './v8-tuning';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTE_MODULES } from '../functions/routes';
import { acceptedKeyModes, authenticate } from '../shared/auth/authenticate';
import { ALL_SCOPES } from '../shared/auth/scopes';
import { withTransaction } from '../shared/db/database';
import { getEntity, inEntity, insertApiKey } from '../shared/tenants/identity-store';
import { LOCAL_WEBHOOK_HOSTS } from '../shared/webhooks/url-policy';
import { provisionEntity } from '../shared/tenants/provision-entity';
import { sweepOutbox } from '../shared/events/publisher';
import { logger } from '../shared/powertools';
import { parseCommandLine } from './command-line';
import { createGatewayServer } from './gateway';
import { startLocalRuntime } from './runtime';

parseCommandLine(
  `usage: npm start   (no arguments; --help: this text)
  Configured by environment: PORT (3000), DATABASE_URL (embedded PGlite), DATA_DIR (.data),
  ACCEPTED_KEY_MODES (live,test), PUBLIC_BASE_URL (http://localhost:<PORT>), AUTHORIZER_CACHE_TTL_SECONDS (60),
  VALIDATE_RESPONSES (off; 1 checks every response against its schema), WEBHOOK_URL_ALLOWLIST (${LOCAL_WEBHOOK_HOSTS}).`,
  {},
);

const port = Number(process.env.PORT ?? 3000);
process.env.PUBLIC_BASE_URL ||= `http://localhost:${port}`;
// A developer's own machine receives webhooks over http; set to '' to hold npm start to the deployed rules.
process.env.WEBHOOK_URL_ALLOWLIST ??= LOCAL_WEBHOOK_HOSTS;
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
const demoKeyFile = path.join(dataDir, 'demo-key.txt');
/** A path as a developer would type it: relative below the working folder, else whole. */
const shortPath = (file: string) => (file.startsWith(process.cwd() + path.sep) ? path.relative(process.cwd(), file) : file);
const serverFile = path.join(dataDir, 'server.json');
/** Every published event, one JSON object a line: where a developer sees them locally. */
const eventsFile = path.join(dataDir, 'events.jsonl');

/**
 * The demo entity and a test key with every scope, created once and kept in the data folder.
 * Demo data is test data: the key acts in the demo account's test-mode entity.
 */
async function ensureDemoKey(): Promise<string> {
  if (existsSync(demoKeyFile)) {
    const saved = readFileSync(demoKeyFile, 'utf8').trim();
    if ((await authenticate(`Bearer ${saved}`, ['live', 'test'])).ok) return saved;
  }
  const existing = await withTransaction({ role: 'app_authenticator' }, (db) =>
    db.maybeOne<{ id: string; owner_id: string }>(
      `SELECT e.id, (SELECT u.id FROM users u WHERE u.entity_id = e.id ORDER BY u.created_at LIMIT 1) AS owner_id
         FROM entities e WHERE e.code = 'demo' AND NOT e.livemode`,
    ),
  );
  let secret: string;
  if (existing) {
    const key = await inEntity(existing.id, async (db) =>
      insertApiKey(db, await getEntity(db, existing.id), { userId: existing.owner_id, mode: 'test', scopes: ALL_SCOPES, name: 'Demo key' }),
    );
    secret = key.secret;
  } else {
    const created = await provisionEntity({ code: 'demo', name: 'Demo Company', mode: 'test', scopes: ALL_SCOPES, keyName: 'Demo key' });
    secret = created.key.secret;
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(demoKeyFile, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function main() {
  const runtime = await startLocalRuntime({ databaseUrl: process.env.DATABASE_URL, dataDir });
  const demoKey = await ensureDemoKey();
  const demoEntity = await authenticate(`Bearer ${demoKey}`, ['live', 'test']);
  runtime.bus.subscribe((event) => appendFileSync(eventsFile, `${JSON.stringify(event)}\n`));

  const authorizerCacheTtlMs = Number(process.env.AUTHORIZER_CACHE_TTL_SECONDS ?? 60) * 1000;
  if (!(authorizerCacheTtlMs >= 0)) throw new Error('AUTHORIZER_CACHE_TTL_SECONDS must be a non-negative number');
  const server = createGatewayServer({ routes: Object.values(ROUTE_MODULES), authorizerCacheTtlMs });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  // The CLI reaches the embedded database through this server while it runs.
  writeFileSync(serverFile, JSON.stringify({ databaseUrl: runtime.embedded ? runtime.databaseUrl : null, pid: process.pid }));

  const sweeper = setInterval(() => {
    sweepOutbox().catch((error) => logger.warn('outbox sweep failed', { error }));
  }, 10_000);

  console.log(`Business Operations API listening on http://localhost:${port}`);
  console.log(`  database: ${runtime.embedded ? `embedded PGlite in ${path.join(dataDir, 'pglite')}` : 'DATABASE_URL'}`);
  console.log(`  accepted key modes: ${acceptedKeyModes().join(', ')}`);
  if (demoEntity.ok) console.log(`  demo entity (test mode): ${demoEntity.caller.entityId} (code demo)`);
  console.log(`  demo test key (every scope), saved in ${demoKeyFile}:\n\n    ${demoKey}\n`);
  console.log(`  reference: ${process.env.PUBLIC_BASE_URL}/docs`);
  console.log(`  events: appended to ${eventsFile} as they are published`);
  console.log(`  try: curl -H "Authorization: Bearer $(cat ${shortPath(demoKeyFile)})" http://localhost:${port}/v1/locations`);

  const shutdown = async () => {
    clearInterval(sweeper);
    server.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
