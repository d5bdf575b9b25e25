/**
 * The pool's connection settings from the environment. DATABASE_URL wins (local, tests, CI). On
 * AWS the function logs in to RDS Proxy as DB_USER with IAM authentication: the password is a token
 * made by the SDK's RDS signer (`@aws-sdk/rds-signer`, loaded with the first connection) with the
 * function role's credentials, afresh for every connection the pool opens. No secret is read; the
 * proxy holds the database password.
 */
import type { Signer } from '@aws-sdk/rds-signer';
import type pg from 'pg';

export function poolConfigFromEnvironment(env: NodeJS.ProcessEnv): pg.PoolConfig {
  const max = Number(env.DATABASE_POOL_MAX ?? 10);
  if (env.DATABASE_URL) return { connectionString: env.DATABASE_URL, max };
  const { DB_HOST: hostname, DB_USER: username } = env;
  if (!hostname || !username) throw new Error('set DATABASE_URL, or DB_HOST and DB_USER (an IAM login through RDS Proxy)');
  const port = Number(env.DB_PORT ?? 5432);
  // One signer per pool, so per container: it resolves the role's credentials once and refreshes them as they expire.
  let signer: Promise<Signer> | undefined;
  const token = async () => {
    signer ??= import('@aws-sdk/rds-signer').then(({ Signer }) => new Signer({ hostname, port, username, region: env.AWS_REGION }));
    return (await signer).getAuthToken();
  };
  return {
    host: hostname,
    port,
    database: env.DB_NAME ?? 'bizops',
    user: username,
    password: token,
    // The proxy requires TLS, and an IAM token must never travel in the clear.
    ssl: { rejectUnauthorized: true },
    max,
    idleTimeoutMillis: 60_000,
  };
}
