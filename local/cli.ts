/**
 * Operator commands: `npm run cli -- <command> [--flag value ...]`
 *
 *   create-entity --code acme --name "Acme Inc" [--mode test|live] [--scopes all|a:read,b:write] [--owner-email e] [--owner-name n]
 *   create-user   --entity acme --email e --name n [--permissions orders.revision_override,...]
 *   create-key    --entity acme [--user <email>] [--mode test|live] [--scopes all|...] [--name "Sync job"]
 *
 * An entity is two data sets under one code, live and test (create-entity makes both, with the
 * owner in both); --mode picks the one a key acts in, and create-user adds the user to both.
 *
 * It talks to DATABASE_URL, or to the embedded database of a running `npm start`, or opens the
 * embedded database itself when the server is stopped.
 */
import { ENTITY_CODE_PATTERN, KEY_MODES, type KeyMode } from '../shared/auth/api-key-format';
import { PERMISSIONS } from '../shared/auth/permissions';
import { ALL_SCOPES, isKnownScope } from '../shared/auth/scopes';
import { accountByCode, inEntity, insertApiKey, type Entity } from '../shared/tenants/identity-store';
import { addUser, provisionEntity } from '../shared/tenants/provision-entity';
import { parseCommandLine } from './command-line';
import { connectForCommand } from './connect';

const USAGE = `usage: npm run cli -- <create-entity|create-user|create-key> [options]   (--help: this text)
  create-entity --code <a-z0-9, 2-32> --name <name> [--mode test|live] [--scopes all|list] [--owner-email e] [--owner-name n]
  create-user   --entity <code> --email <email> --name <name> [--permissions p1,p2]   (known: ${PERMISSIONS.join(', ')})
  create-key    --entity <code> [--user <email>] [--mode test|live] [--scopes all|list] [--name n]`;

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function parseScopes(value: string | undefined): string[] {
  if (!value || value === 'all') return ALL_SCOPES;
  const scopes = value.split(',').map((s) => s.trim());
  const unknown = scopes.filter((s) => !isKnownScope(s));
  if (unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ')} (known: ${ALL_SCOPES.join(', ')})`);
  return scopes;
}

function parseMode(value: string | undefined): KeyMode {
  const mode = value ?? 'test';
  if (!KEY_MODES.includes(mode as KeyMode)) throw new UsageError('--mode is live or test');
  return mode as KeyMode;
}

/** Both rows of an account: its live entity and its test-mode twin. */
async function accountOf(code: string): Promise<Record<KeyMode, Entity>> {
  const account = await accountByCode(code);
  if (!account) throw new UsageError(`no entity with code ${code}`);
  return account;
}

async function run(command: string | undefined, values: Record<string, string | undefined>): Promise<unknown> {
  switch (command) {
    case 'create-entity': {
      const code = required(values, 'code');
      if (!ENTITY_CODE_PATTERN.test(code)) throw new UsageError('--code is 2 to 32 lowercase letters and digits');
      const created = await provisionEntity({
        code,
        name: required(values, 'name'),
        mode: parseMode(values.mode),
        scopes: parseScopes(values.scopes),
        ownerEmail: values['owner-email'],
        ownerName: values['owner-name'],
      });
      return {
        entity: created.entity,
        entities: { live: created.modes.live.id, test: created.modes.test.id },
        owner: { id: created.owner.id, email: created.owner.email },
        api_key: { id: created.key.id, mode: created.key.mode, scopes: created.key.scopes, secret: created.key.secret },
      };
    }
    case 'create-user': {
      const account = await accountOf(required(values, 'entity'));
      const permissions = (values.permissions ?? '').split(',').filter(Boolean);
      const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
      if (unknown.length) throw new UsageError(`unknown permissions: ${unknown.join(', ')}`);
      // One person, both modes: the user gets the same id in the live entity and its test twin.
      const user = await addUser(account, { email: required(values, 'email'), name: required(values, 'name'), permissions });
      return { user };
    }
    case 'create-key': {
      // A key acts in the entity of its mode: a test key in the account's test twin.
      const mode = parseMode(values.mode);
      const entity = (await accountOf(required(values, 'entity')))[mode];
      const key = await inEntity(entity.id, async (db) => {
        const user = values.user
          ? await db.maybeOne<{ id: string }>('SELECT id FROM users WHERE entity_id = $1 AND lower(email) = lower($2)', [entity.id, values.user])
          : await db.maybeOne<{ id: string }>('SELECT id FROM users WHERE entity_id = $1 ORDER BY created_at LIMIT 1', [entity.id]);
        if (!user) throw new UsageError(`no such user in ${values.entity}`);
        return insertApiKey(db, entity, {
          userId: user.id,
          mode,
          scopes: parseScopes(values.scopes),
          name: values.name,
        });
      });
      return { api_key: { id: key.id, mode: key.mode, scopes: key.scopes, created_by_user_id: key.created_by_user_id, secret: key.secret } };
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}

async function main() {
  const { positionals, values } = parseCommandLine(USAGE, {
    positionals: true,
    options: ['code', 'name', 'mode', 'scopes', 'owner-email', 'owner-name', 'entity', 'email', 'permissions', 'user'],
  });
  let close: (() => Promise<void>) | undefined;
  try {
    if (!['create-entity', 'create-user', 'create-key'].includes(positionals[0] ?? ''))
      throw new UsageError(positionals[0] ? `unknown command ${positionals[0]}` : 'no command');
    close = await connectForCommand();
    const result = await run(positionals[0], values);
    console.log(JSON.stringify(result, null, 2));
    if (JSON.stringify(result).includes('"secret"')) console.error('\nThe secret is shown once; store it now. Only its hash is kept.');
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    }
  } finally {
    await close?.();
  }
}

void main();
