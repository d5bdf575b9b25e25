/**
 * A transaction-pooling PgBouncer in front of the benchmark database, standing in for RDS Proxy:
 * each client (a cold-start child) gets a new connection to the pooler, but its transactions run
 * on a server connection the pooler keeps open between clients, so a backend that has served a
 * statement before serves it again with its catalog caches filled. PgBouncer must be installed
 * (Debian: `apt-get install pgbouncer`); it is started in a temporary directory and stopped by
 * the returned function. Started as root, it runs as `postgres` (PgBouncer refuses root).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
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
