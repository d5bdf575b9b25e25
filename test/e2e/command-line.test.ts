/**
 * Every command-line entry point answers --help and an unknown flag with its usage and exit
 * status 2, before it touches a database, and never with a stack trace.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ADMIN_COMMAND_NAMES } from '../../functions/platform/admin-commands';

const ENTRY_POINTS = [
  { script: 'local/cli.ts', usage: `usage: npm run cli -- [--stage <stage>] <${ADMIN_COMMAND_NAMES.join('|')}>` },
  { script: 'local/run-recurring.ts', usage: 'usage: npm run recurring -- [--as-of YYYY-MM-DD]' },
  { script: 'local/server.ts', usage: 'usage: npm start' },
  { script: 'client/generate.ts', usage: 'usage: npm run client:generate' },
  { script: 'bench/run-all.ts', usage: 'usage: npm run bench -- [--quick]' },
];

function run(script: string, arg: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // No database at all: a command that tried to reach one would fail differently.
  const env = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: '/nonexistent' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, arg], { encoding: 'utf8', env, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe.concurrent.each(ENTRY_POINTS)('$script', ({ script, usage }) => {
  it('prints its usage for --help and -h, and names an unknown flag above it; exit status 2, no stack trace', async () => {
    const [help, short, unknown] = await Promise.all([run(script, '--help'), run(script, '-h'), run(script, '--no-such-flag')]);
    for (const [flag, result] of [
      ['--help', help],
      ['-h', short],
    ] as const) {
      expect(result.status, flag).toBe(2);
      expect(result.stdout.split('\n')[0], flag).toContain(usage);
      expect(result.stderr, flag).not.toMatch(/\n\s+at /);
    }
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--no-such-flag'");
    expect(unknown.stderr).toContain(usage);
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    expect(unknown.stdout).toBe('');
  }, 120_000);
});
