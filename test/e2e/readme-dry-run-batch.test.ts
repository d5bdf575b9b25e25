/**
 * The README's "Dry run and batch" commands, run as written by bash against a fresh `npm start`:
 * what they print is what the README says they printed, ids aside.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server';
import { bash, fencedBlocks, readmeSection } from './readme';

/** The section's blocks: the commands (sh) and what they printed (text). */
function section(): { commands: string; printed: string } {
  const text = readmeSection('Dry run and batch');
  const [commands, printed] = [fencedBlocks(text, 'sh'), fencedBlocks(text, 'text')];
  expect([commands.length, printed.length]).toEqual([1, 1]);
  return { commands: commands[0], printed: printed[0] };
}

/** A printed line as a pattern: its ids (uuids, and the last four hex digits of an account id) may differ. */
function linePattern(line: string): RegExp {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '[0-9a-f-]{36}').replace(/…[0-9a-f]{4}/g, '…[0-9a-f]{4}')}$`,
  );
}

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('README: Dry run and batch', () => {
  it('prints what the README says on a fresh npm start: a dry run that keeps nothing, and a batch whose order names its new account', async () => {
    const { commands, printed } = section();
    const script = `BASE=${server.baseUrl}\nKEY=$(cat "$DATA_DIR/demo-key.txt")\n${commands}`;
    const lines = (await bash(script, { DATA_DIR: server.dataDir })).trim().split('\n');
    const expected = printed.trim().split('\n');
    expect(lines).toHaveLength(expected.length);
    expected.forEach((line, index) => expect(lines[index]).toMatch(linePattern(line)));
    // The batch's order belongs to the account the same batch created.
    const [account, order] = lines.slice(-2).map((line) => line.split(' ').at(-1));
    expect(order).toBe(account);
  });
});
