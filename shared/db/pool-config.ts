/**
 * The pool's connection settings from the environment. DATABASE_URL wins (local, tests, CI). On
 * AWS the function logs in to RDS Proxy as DB_USER with IAM authentication: the password is a token
 * signed locally with the function role's credentials (rds-auth-token.ts), made afresh for every
 * connection the pool opens. No secret is read and no AWS call is made before the first
 * connection; the proxy holds the database password.
 */
import type pg from 'pg';
import { lambdaSigningContext } from '../aws-signing';
import { rdsAuthToken } from './rds-auth-token';

export function poolConfigFromEnvironment(env: NodeJS.ProcessEnv): pg.PoolConfig {
  const max = Number(env.DATABASE_POOL_MAX ?? 10);
  if (env.DATABASE_URL) return { connectionString: env.DATABASE_URL, max };
  const { DB_HOST: hostname, DB_USER: username } = env;
  if (!hostname || !username) throw new Error('set DATABASE_URL, or DB_HOST and DB_USER (an IAM login through RDS Proxy)');
  const port = Number(env.DB_PORT ?? 5432);
  // Resolved once, as the idempotency store's DynamoDB connection is: the runtime's credentials are
  // the role's for the environment's life. A function without them fails here, at its first connection.
  const signing = lambdaSigningContext(env);
  return {
    host: hostname,
    port,
    database: env.DB_NAME ?? 'bizops',
    user: username,
    password: () => rdsAuthToken({ hostname, port, username }, signing),
    // The proxy requires TLS, and an IAM token must never travel in the clear.
    ssl: { rejectUnauthorized: true },
    max,
    idleTimeoutMillis: 60_000,
  };
}
