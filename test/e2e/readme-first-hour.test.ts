/**
 * The README's "First hour" commands, run as written by bash against `npm start` on a data folder
 * of its own (`DATA_DIR` set, as the README's own example run does): what they print is what the
 * README says they print.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server';
import { bash, fencedBlocks, readmeSection } from './readme';

/** The second shell block of the First hour section: the calls made while the server runs. */
function firstHourCalls(): string {
  const blocks = fencedBlocks(readmeSection('First hour'), 'sh');
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  return blocks[1];
}

let server: LocalServer;
beforeAll(async () => {
  // Without the switches the tests set: the server must keep the SDK's notice and the metrics quiet itself.
  server = await startLocalServer({ AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined, POWERTOOLS_METRICS_DISABLED: undefined });
});
afterAll(async () => {
  await server?.stop();
});

describe('README: First hour', () => {
  it('starts without the AWS SDK notice and prints where the key is', () => {
    expect(server.output()).not.toContain('NodeVersionSupportWarning');
    expect(server.output()).toContain(`$(cat ${server.dataDir}/demo-key.txt)`);
  });

  it('prints what the README says, reading the key and the events from DATA_DIR', async () => {
    const calls = firstHourCalls();
    expect(calls).toContain('BASE=http://localhost:3000');
    const printed = await bash(calls.replace('BASE=http://localhost:3000', `BASE=${server.baseUrl}`), { DATA_DIR: server.dataDir });
    const lines = printed.trim().split('\n');
    expect(lines[0]).toMatch(/^account [0-9a-f-]{36}, product [0-9a-f-]{36}$/);
    expect(lines[1]).toBe('SO-000001 confirmed 50');
    expect(lines[2]).toMatch(/^[0-9a-f-]{36} 50 undeposited$/);
    expect(lines[3]).toBe('paid');
    const eventTypes = lines.filter((line) => line.startsWith('"type":')).map((line) => line.slice('"type":'.length));
    expect(eventTypes).toEqual(
      expect.arrayContaining(['"account.created"', '"product.created"', '"order.created"', '"order.confirmed"', '"journal_entry.posted"', '"payment.created"']),
    );
    // Locally no metrics document is printed per request (Powertools Metrics is off in npm start).
    expect(server.output()).not.toContain('CloudWatchMetrics');
    const error = JSON.parse(lines.find((line) => line.startsWith('{"error"'))!) as { code: string; param: string; doc_url: string };
    expect(error).toMatchObject({ code: 'not_found', param: 'id', doc_url: expect.stringMatching(/^http:\/\/localhost:\d+\/docs#error-not_found$/) });
    // It ends with the balance sheet of what it did: the check in undeposited funds, owed as a deposit.
    expect(lines.slice(-3)).toEqual(['assets 50: Undeposited Funds 50', 'liabilities 50: Customer Deposits and Credits 50', 'equity 0: Retained Earnings 0']);
  });
});
