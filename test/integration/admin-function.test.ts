/**
 * The admin function (functions/platform/admin.ts) against PostgreSQL: the commands
 * `npm run cli -- --stage <stage>` sends it create what the local CLI creates, the keys it prints
 * work on the API, and a mistake in a command is a usage answer that writes nothing and logs no
 * option value.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/platform/admin';
import { ADMIN_COMMAND_NAMES } from '../../functions/platform/admin-commands';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { emittedDuring } from '../support/emitted-lines';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();
const context = { awsRequestId: 'admin-test-request' };

/** A fresh entity code: letters and base-36, never a long digit run. */
const newCode = () =>
  `adm${randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)])}`;

async function entityRows(code: string): Promise<number> {
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM entities WHERE code = $1', [code])).rows[0].n;
  } finally {
    await client.end();
  }
}

interface CreatedEntity {
  entity: { id: string };
  entities: { live: string; test: string };
  owner: { id: string; email: string };
  api_key: { id: string; mode: string; secret: string };
}

function okResult<T>(answer: Awaited<ReturnType<typeof handler>>): T {
  if (!answer.ok) throw new Error(`usage answer: ${answer.usage}`);
  return answer.result as T;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('admin function', () => {
  it('runs the commands of the local CLI', () => {
    // The CLI's own table (functions/platform/admin-commands.ts): a command added there runs here too.
    expect(ADMIN_COMMAND_NAMES).toEqual(expect.arrayContaining(['create-entity', 'create-user', 'create-key', 'run-recurring']));
  });

  it('creates an entity (both modes) whose printed key works on the API', async () => {
    const code = newCode();
    const created = okResult<CreatedEntity>(
      await handler({ command: 'create-entity', options: { code, name: 'Admin Co', mode: 'test', 'owner-email': 'ops@admin.example' } }, context),
    );
    expect(created.api_key).toMatchObject({ mode: 'test', secret: expect.stringMatching(new RegExp(`^bo_test_ent_${code}_`)) });
    expect(created.owner.email).toBe('ops@admin.example');
    expect(created.entities.live).not.toBe(created.entities.test);
    expect(await entityRows(code)).toBe(2);

    const response = await api.raw('GET', '/v1/locations', { key: created.api_key.secret });
    expect(response.status, response.text).toBe(200);
  });

  it('adds a user and creates a live key for that user', async () => {
    const code = newCode();
    okResult(await handler({ command: 'create-entity', options: { code, name: 'Admin Live', mode: 'live' } }, context));
    const { user } = okResult<{ user: { id: string; email: string } }>(
      await handler({ command: 'create-user', options: { entity: code, email: 'clerk@admin.example', name: 'Clerk' } }, context),
    );
    expect(user.email).toBe('clerk@admin.example');
    const { api_key: key } = okResult<{ api_key: { mode: string; scopes: string[]; created_by_user_id: string; secret: string } }>(
      await handler({ command: 'create-key', options: { entity: code, user: 'clerk@admin.example', mode: 'live', scopes: 'settings:write' } }, context),
    );
    expect(key).toMatchObject({ mode: 'live', scopes: ['settings:write'], created_by_user_id: user.id });
    expect(key.secret).toMatch(new RegExp(`^bo_live_ent_${code}_`));

    // The key acts in the live data set.
    const response = await api.raw('POST', '/v1/locations', { key: key.secret, body: { name: 'Main warehouse', country: 'US' } });
    expect(response.status, response.text).toBe(201);
    expect((response.body as { livemode: boolean }).livemode).toBe(true);
  });

  it('prints every scope for --scopes all, and the permissions given to a new user in the mode asked', async () => {
    const code = newCode();
    const created = okResult<{ api_key: { scopes: string[] } }>(
      await handler({ command: 'create-entity', options: { code, name: 'All Scopes', mode: 'live', scopes: 'all' } }, context),
    );
    expect([...created.api_key.scopes].sort()).toEqual([...ALL_SCOPES].sort());
    expect(created.api_key.scopes).toHaveLength(23);
    const { user } = okResult<{ user: { entity_id: string; permissions: string[] } }>(
      await handler(
        { command: 'create-user', options: { entity: code, email: 'close@admin.example', name: 'Closer', permissions: 'accounting.close_periods' } },
        context,
      ),
    );
    expect(user.permissions).toEqual(['accounting.close_periods']);
  });

  it('runs the recurring journal entries as of a date', async () => {
    const result = okResult<{ entries: unknown[]; failures: unknown[] }>(
      await handler({ command: 'run-recurring', options: { 'as-of': '2026-01-31' } }, context),
    );
    expect(Array.isArray(result.entries)).toBe(true);
    expect(result.failures).toEqual([]);
  });

  it.each([
    [{ command: 'drop-database', options: {} }, /unknown command drop-database/],
    [{ options: {} }, /no command/],
    [{ command: 'create-entity', options: { name: 'No code' } }, /--code is required/],
    [{ command: 'create-entity', options: { code: 'X!', name: 'Bad code' } }, /--code is 2 to 32/],
    [{ command: 'create-entity', options: { code: 'admok', name: 'Extra', stage: 'prod' } }, /takes no --stage/],
    [{ command: 'create-entity', options: { code: 'admok', name: 7 } }, /--name takes a string/],
    [{ command: 'create-entity', options: ['code'] }, /options must be an object/],
    [{ command: 'create-key', options: { entity: 'nosuchentity' } }, /no entity with code nosuchentity/],
    [{ command: 'create-key', options: { entity: 'admok', mode: 'staging' } }, /--mode is live or test/],
    [{ command: 'run-recurring', options: { 'as-of': 'tomorrow' } }, /--as-of takes a date/],
  ])('answers %j with its usage and writes nothing', async (event, message) => {
    const answer = await handler(event, context);
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.usage).toMatch(message);
    expect(await entityRows('admok')).toBe(0);
  });

  it('logs the command it ran, never the option values or the key secret', async () => {
    const code = newCode();
    let created: CreatedEntity | undefined;
    const { lines } = await emittedDuring(async () => {
      created = okResult<CreatedEntity>(
        await handler({ command: 'create-entity', options: { code, name: 'Quiet Holdings', 'owner-email': 'quiet@admin.example' } }, context),
      );
    });
    const logged = lines.join('\n');
    expect(logged).toContain('admin command ran');
    expect(logged).toContain('create-entity');
    for (const value of [code, 'Quiet Holdings', 'quiet@admin.example', created!.api_key.secret]) expect(logged).not.toContain(value);
  });
});
