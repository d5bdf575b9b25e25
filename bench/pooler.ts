/**
 * A transaction-pooling PgBouncer in front of the benchmark database, standing in for RDS Proxy:
 * each client (a cold-start child) gets a new connection to the pooler, but its transactions run
 * on a server connection the pooler keeps open between clients, so a backend that has served a
 * statement before serves it again with its catalog caches filled. Clients must use TLS, as RDS
 * Proxy requires: the pooler presents a self-signed certificate for 127.0.0.1 made here, which the
 * returned URL names as the CA to verify against (a client's first TLS connection builds Node's
 * certificate store all the same, about 20 ms, as a function's first connection to the proxy does). PgBouncer and openssl must be installed (Debian: `apt-get install
 * pgbouncer`); it is started in a temporary directory and stopped by the returned function.
 * Started as root, it runs as `postgres` (PgBouncer refuses root).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the pooler for `database` on the server of `directUrl`; resolves once it answers a query. */
export async function startPooler(directUrl: string, database: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const binary = CANDIDATES.find((path) => existsSync(path));
  if (!binary) throw new Error(`--pooler needs PgBouncer (looked in ${CANDIDATES.join(', ')}); on Debian: apt-get install pgbouncer`);
  const direct = new URL(directUrl);
  const user = decodeURIComponent(direct.username || 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'bench-pooler-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const [key, certificate] = [join(dir, 'key.pem'), join(dir, 'certificate.pem')];
  // Self-signed: the certificate is its own CA. Readable by the user PgBouncer runs as; the directory is thrown away.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      certificate,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  chmodSync(key, 0o644);
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    config,
    [
      '[databases]',
      `${database} = host=${direct.hostname} port=${direct.port || 5432} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      'client_tls_sslmode = require',
      `client_tls_key_file = ${key}`,
      `client_tls_cert_file = ${certificate}`,
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      // One server connection: the children run one at a time, so each meets the same warm backend.
      'default_pool_size = 1',
      'max_client_conn = 50',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), config], { stdio: 'ignore' });
  // verify-full: the certificate must chain to a trusted CA and name 127.0.0.1, as the data layer checks the proxy's.
  const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}?sslmode=verify-full&sslrootcert=${encodeURIComponent(certificate)}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ host: '127.0.0.1', port, user, database, ssl: { ca: readFileSync(certificate, 'utf8') } });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return { url, stop };
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt >= 50 || child.exitCode !== null) {
        await stop();
        throw new Error(`PgBouncer did not start: ${(error as Error).message}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
