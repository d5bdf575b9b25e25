/**
 * The operator commands, one table for both ways they run: `npm run cli -- <command>` runs them
 * in process against the local database (local/cli.ts), and `npm run cli -- --stage <stage>
 * <command>` sends the same command and options to the stage's admin function
 * (functions/platform/admin.ts), which runs them inside the VPC.
 *
 * A command is a name, its usage line, the options it takes and what it does; adding one (the
 * migration commands, say) is one entry in ADMIN_COMMANDS. Every option is a string, so a command
 * travels as plain JSON `{ command, options }`.
 */
import { ENTITY_CODE_PATTERN, KEY_MODES, type KeyMode } from '../../shared/auth/api-key-format';
import { PERMISSIONS } from '../../shared/auth/permissions';
import { ALL_SCOPES, isKnownScope } from '../../shared/auth/scopes';
import { usageTiers } from '../../shared/auth/usage-identifier';
import { todayUtc } from '../../shared/dates';
import { runRecurringTemplates } from '../../shared/ledger/run-recurring';
import { runQuoteExpiry } from '../../shared/orders/expire-quotes';
import { runCreditExpiry } from '../../shared/payables/expire-credits';
import { accountByCode, inEntity, insertApiKey, type Entity } from '../../shared/tenants/identity-store';
import { addUser, provisionEntity } from '../../shared/tenants/provision-entity';

/** A mistake in the command line: answered with the usage, never run. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = Readonly<Record<string, string | undefined>>;

interface AdminCommand {
  usage: string;
  options: readonly string[];
  run(options: Options): Promise<unknown>;
}

/** The admin function of a stage (infra/stacks/api-stack.ts names it; the CLI invokes it by name). */
export function adminFunctionName(stage: string): string {
  return `bizops-${stage}-admin`;
}

function required(options: Options, name: string): string {
  const value = options[name];
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

/** A usage tier of this stage (USAGE_TIERS; the first is the default): what throttles the account's keys on AWS. */
function parseTier(value: string | undefined): string {
  const tiers = usageTiers();
  if (value === undefined) return tiers[0];
  if (!tiers.includes(value)) throw new UsageError(`--tier is one of ${tiers.join(', ')}`);
  return value;
}

/** Both rows of an account: its live entity and its test-mode twin. */
async function accountOf(code: string): Promise<Record<KeyMode, Entity>> {
  const account = await accountByCode(code);
  if (!account) throw new UsageError(`no entity with code ${code}`);
  return account;
}

export const ADMIN_COMMANDS = {
  'create-entity': {
    usage: '--code <a-z0-9, 2-32> --name <name> [--mode test|live] [--scopes all|list] [--owner-email e] [--owner-name n] [--tier <usage tier>]',
    options: ['code', 'name', 'mode', 'scopes', 'owner-email', 'owner-name', 'tier'],
    async run(options) {
      const code = required(options, 'code');
      if (!ENTITY_CODE_PATTERN.test(code)) throw new UsageError('--code is 2 to 32 lowercase letters and digits');
      const tier = parseTier(options.tier);
      const created = await provisionEntity({
        code,
        name: required(options, 'name'),
        mode: parseMode(options.mode),
        scopes: parseScopes(options.scopes),
        ownerEmail: options['owner-email'],
        ownerName: options['owner-name'],
        usageTier: tier,
      });
      return {
        entity: created.entity,
        usage_tier: tier,
        entities: { live: created.modes.live.id, test: created.modes.test.id },
        owner: { id: created.owner.id, email: created.owner.email },
        api_key: { id: created.key.id, mode: created.key.mode, scopes: created.key.scopes, secret: created.key.secret },
      };
    },
  },
  'create-user': {
    usage: `--entity <code> --email <email> --name <name> [--permissions p1,p2]   (known: ${PERMISSIONS.join(', ')})`,
    options: ['entity', 'email', 'name', 'permissions'],
    async run(options) {
      const account = await accountOf(required(options, 'entity'));
      const permissions = (options.permissions ?? '').split(',').filter(Boolean);
      const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
      if (unknown.length) throw new UsageError(`unknown permissions: ${unknown.join(', ')}`);
      // One person, both modes: the user gets the same id in the live entity and its test twin.
      const user = await addUser(account, { email: required(options, 'email'), name: required(options, 'name'), permissions });
      return { user };
    },
  },
  'create-key': {
    usage: '--entity <code> [--user <email>] [--mode test|live] [--scopes all|list] [--name n]',
    options: ['entity', 'user', 'mode', 'scopes', 'name'],
    async run(options) {
      // A key acts in the entity of its mode: a test key in the account's test twin.
      const mode = parseMode(options.mode);
      const code = required(options, 'entity');
      const entity = (await accountOf(code))[mode];
      const key = await inEntity(entity.id, async (db) => {
        const user = options.user
          ? await db.maybeOne<{ id: string }>('SELECT id FROM users WHERE entity_id = $1 AND lower(email) = lower($2)', [entity.id, options.user])
          : await db.maybeOne<{ id: string }>('SELECT id FROM users WHERE entity_id = $1 ORDER BY created_at LIMIT 1', [entity.id]);
        if (!user) throw new UsageError(`no such user in ${code}`);
        return insertApiKey(db, entity, { userId: user.id, mode, scopes: parseScopes(options.scopes), name: options.name });
      });
      return { api_key: { id: key.id, mode: key.mode, scopes: key.scopes, created_by_user_id: key.created_by_user_id, secret: key.secret } };
    },
  },
  'run-recurring': {
    usage: '[--as-of YYYY-MM-DD]   (default: today, UTC; what the daily schedule runs)',
    options: ['as-of'],
    async run(options) {
      const asOfDate = options['as-of'] ?? todayUtc();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(asOfDate) || Number.isNaN(Date.parse(asOfDate))) throw new UsageError('--as-of takes a date, YYYY-MM-DD');
      return runRecurringTemplates(asOfDate);
    },
  },
  'expire-credits': {
    usage: '[--as-of <ISO timestamp>]   (default: now; forfeits vendor credits past expires_at, as the hourly schedule does)',
    options: ['as-of'],
    async run(options) {
      const asOf = new Date(options['as-of'] ?? Date.now());
      if (Number.isNaN(asOf.getTime())) throw new UsageError('--as-of takes an ISO 8601 date or timestamp');
      return runCreditExpiry(asOf);
    },
  },
  'expire-quotes': {
    usage: '[--as-of <ISO timestamp>]   (default: now; records order.expired for quotes past expires_at, as the hourly schedule does)',
    options: ['as-of'],
    async run(options) {
      const asOf = new Date(options['as-of'] ?? Date.now());
      if (Number.isNaN(asOf.getTime())) throw new UsageError('--as-of takes an ISO 8601 date or timestamp');
      return runQuoteExpiry(asOf);
    },
  },
} satisfies Record<string, AdminCommand>;

export type AdminCommandName = keyof typeof ADMIN_COMMANDS;

export const ADMIN_COMMAND_NAMES = Object.keys(ADMIN_COMMANDS) as AdminCommandName[];

/** Every option any command takes (the command line parser needs the union). */
export const ADMIN_OPTIONS = [...new Set(Object.values(ADMIN_COMMANDS).flatMap((command: AdminCommand) => command.options))];

export function isAdminCommand(name: unknown): name is AdminCommandName {
  return typeof name === 'string' && Object.hasOwn(ADMIN_COMMANDS, name);
}

export const ADMIN_USAGE = [
  `usage: npm run cli -- [--stage <stage>] <${ADMIN_COMMAND_NAMES.join('|')}> [options]   (--help: this text)`,
  ...ADMIN_COMMAND_NAMES.map((name) => `  ${name.padEnd(14)}${ADMIN_COMMANDS[name].usage}`),
  '  --stage       run the command on that deployed stage (its admin function, with your AWS credentials) instead of locally',
].join('\n');

/** Runs one command; a bad command or option throws UsageError before anything is written. */
export async function runAdminCommand(command: string | undefined, options: Options): Promise<unknown> {
  if (!isAdminCommand(command)) throw new UsageError(command ? `unknown command ${command}` : 'no command');
  const spec: AdminCommand = ADMIN_COMMANDS[command];
  const unexpected = Object.keys(options).filter((name) => options[name] !== undefined && !spec.options.includes(name));
  if (unexpected.length) throw new UsageError(`${command} takes no ${unexpected.map((name) => `--${name}`).join(', ')}`);
  return spec.run(options);
}
