/**
 * The deploy-time migration step: the onEvent handler of a CloudFormation custom resource.
 *
 * On every Create/Update (the resource's properties carry a hash of migrations/, so a changed
 * migration means an Update) it:
 *   1. creates the application database if it is missing,
 *   2. creates the login role the API connects as (or resets its password), with the password of
 *      the application secret, sent as a SCRAM verifier so the plaintext never reaches the server,
 *   3. applies pending migrations as the cluster admin (shared/db/migrate.ts),
 *   4. grants the login role membership in the NOLOGIN roles the migrations create, without
 *      inheriting their privileges: every transaction must switch role (shared/db/database.ts).
 * Delete does nothing: removing the stack must never drop customer data.
 *
 * It connects straight to the cluster writer (not through RDS Proxy): DDL and node-pg-migrate's
 * session advisory lock would pin a proxy connection anyway, and the deploy must not depend on
 * the proxy having picked up a brand-new secret.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import pg from 'pg';
import { DEFAULT_TIMEOUTS } from '../../shared/db/opening-batch';
import { migrate } from '../../shared/db/migrate';

/** The roles created by the migrations; the login role may switch to each, never inherit them. */
const APP_ROLES = ['app_user', 'app_authenticator', 'app_worker'] as const;

/**
 * Session defaults of the login role: the same bounds every transaction sets for itself
 * (shared/db/database.ts), here for any session that does not. They must sit on the login role:
 * PostgreSQL applies a role's settings at login only, never on a switch into app_user and the like.
 */
const LOGIN_TIMEOUTS: Record<string, string> = {
  lock_timeout: `${DEFAULT_TIMEOUTS.lockMs}ms`,
  statement_timeout: `${DEFAULT_TIMEOUTS.statementMs}ms`,
  idle_in_transaction_session_timeout: `${DEFAULT_TIMEOUTS.idleInTransactionMs}ms`,
};

export interface DbSecret {
  username: string;
  password: string;
}

interface Settings {
  adminSecretArn: string;
  appSecretArn: string;
  host: string;
  port: number;
  database: string;
  migrationsDir: string;
}

interface ProviderResponse {
  PhysicalResourceId: string;
  Data?: Record<string, string>;
}

function settings(env: NodeJS.ProcessEnv): Settings {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  return {
    adminSecretArn: required('ADMIN_SECRET_ARN'),
    appSecretArn: required('APP_SECRET_ARN'),
    host: required('DB_HOST'),
    port: Number(env.DB_PORT ?? 5432),
    database: env.DB_NAME ?? 'bizops',
    migrationsDir: required('MIGRATIONS_DIR'),
  };
}

const secrets = new SecretsManagerClient({});

async function readSecret(arn: string): Promise<DbSecret> {
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: arn }));
  const parsed = JSON.parse(SecretString ?? '{}') as Partial<DbSecret>;
  if (!parsed.username || !parsed.password) throw new Error(`secret ${arn} lacks username or password`);
  return { username: parsed.username, password: parsed.password };
}

/**
 * A PostgreSQL SCRAM-SHA-256 verifier (the format pg_authid stores), so CREATE/ALTER ROLE never
 * carries the plaintext password into statement logs. Generated secrets are printable ASCII, for
 * which SASLprep is the identity; anything else is refused rather than hashed differently from
 * how the server would.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('the application password must be printable ASCII');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

async function withClient<T>(config: pg.ClientConfig | string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ensureDatabaseAndLogin(client: pg.Client, database: string, app: DbSecret): Promise<void> {
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  // CREATE DATABASE cannot run inside a transaction block; this client runs in autocommit.
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);

  const role = client.escapeIdentifier(app.username);
  const password = client.escapeLiteral(scramVerifier(app.password));
  const found = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [app.username]);
  // Only the attributes that matter are named: the defaults already deny SUPERUSER, CREATEDB,
  // CREATEROLE and BYPASSRLS, and Aurora's admin (not a superuser) may not even mention some of them.
  if (found.rowCount === 0) {
    await client.query(`CREATE ROLE ${role} LOGIN NOINHERIT PASSWORD ${password}`);
  } else {
    // Keeps the role in step with the secret (a replaced secret, or a password changed by hand).
    await client.query(`ALTER ROLE ${role} WITH LOGIN NOINHERIT PASSWORD ${password}`);
  }
  for (const [name, value] of Object.entries(LOGIN_TIMEOUTS)) await client.query(`ALTER ROLE ${role} SET ${name} = ${client.escapeLiteral(value)}`);
  await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(database)} TO ${role}`);
}

async function grantAppRoles(client: pg.Client, username: string): Promise<void> {
  const roles = APP_ROLES.map((name) => client.escapeIdentifier(name)).join(', ');
  // PostgreSQL 16 grant options: SET allows switching into the role; INHERIT FALSE means the login role
  // itself holds no table privileges, so a connection that skips the role switch can read nothing.
  await client.query(`GRANT ${roles} TO ${client.escapeIdentifier(username)} WITH INHERIT FALSE, SET TRUE`);
}

export interface ProvisionInput {
  /** Connection settings for the admin login to a given database of the cluster. */
  adminConnection: (database: string) => pg.ClientConfig | string;
  database: string;
  app: DbSecret;
  migrationsDir: string;
}

/** Steps 1 to 4 of the module comment; returns the names of the migrations applied now. */
export async function provisionDatabase(input: ProvisionInput): Promise<string[]> {
  await withClient(input.adminConnection('postgres'), (client) => ensureDatabaseAndLogin(client, input.database, input.app));
  const applied = await migrate(input.adminConnection(input.database), input.migrationsDir);
  await withClient(input.adminConnection(input.database), (client) => grantAppRoles(client, input.app.username));
  return applied;
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<ProviderResponse> {
  const physicalId = 'PhysicalResourceId' in event ? event.PhysicalResourceId : 'bizops-database-migrations';
  if (event.RequestType === 'Delete') return { PhysicalResourceId: physicalId };

  const config = settings(process.env);
  const [admin, app] = await Promise.all([readSecret(config.adminSecretArn), readSecret(config.appSecretArn)]);
  const connection = (database: string): pg.ClientConfig => ({
    host: config.host,
    port: config.port,
    database,
    user: admin.username,
    password: admin.password,
    // The cluster presents an RDS CA certificate; NODE_EXTRA_CA_CERTS loads the runtime's RDS bundle.
    ssl: { rejectUnauthorized: true },
    // A Serverless v2 writer at minimum capacity can take a while to accept the first connection.
    connectionTimeoutMillis: 60_000,
  });

  const applied = await provisionDatabase({ adminConnection: connection, database: config.database, app, migrationsDir: config.migrationsDir });

  console.log(JSON.stringify({ level: 'INFO', message: 'database migrated', database: config.database, applied }));
  // Response data is capped at 4 KB, so report a count, not the names.
  return { PhysicalResourceId: physicalId, Data: { AppliedCount: String(applied.length) } };
}
