/**
 * Row 4 of issue 42: the limits the document and the README state are the ones each stage
 * enforces: the local gateway's (shared/http/rate-limits.ts) and the deployed stages' config.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { stageConfig } from '../../infra/config/stages';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { LOCAL_AUTH_FAILURE_LIMIT, LOCAL_RATE_LIMIT } from '../../shared/http/rate-limits';

const description = (buildOpenApiDocument(ROUTES) as { info: { description: string } }).info.description;
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The row of a stage in a Markdown table. */
const rowOf = (text: string, stage: string) => text.split('\n').find((line) => line.replace(/\s+/g, ' ').startsWith(`| ${stage} `)) ?? '';

describe('row 4: the rate limits the document and the README state', () => {
  it('are the local gateway’s per-key and failed-authentication limits', () => {
    const local = rowOf(description, 'local');
    expect(local).toContain(`bursts of ${LOCAL_RATE_LIMIT.burst}, ${LOCAL_RATE_LIMIT.ratePerSecond} requests per second`);
    expect(local).toContain(`bursts of ${LOCAL_AUTH_FAILURE_LIMIT.burst}, ${LOCAL_AUTH_FAILURE_LIMIT.ratePerSecond} requests per second per client address`);
    const readmeLocal = rowOf(readme, 'local');
    expect(readmeLocal).toContain(`bursts of ${LOCAL_RATE_LIMIT.burst}, ${LOCAL_RATE_LIMIT.ratePerSecond} requests per second`);
    expect(readmeLocal).toContain(`bursts of ${LOCAL_AUTH_FAILURE_LIMIT.burst}, ${LOCAL_AUTH_FAILURE_LIMIT.ratePerSecond} per second`);
  });

  it.each(['sandbox', 'prod'] as const)('are the %s stage’s usage tiers, stage throttle and per-address firewall rule', (name) => {
    const { api } = stageConfig(name, { alarmEmail: 'alarms@bizops.test' });
    const row = rowOf(description, name);
    const readmeRow = rowOf(readme, name);
    for (const tier of api.usageTiers) {
      expect(row).toContain(
        `${tier.name} tier${tier === api.usageTiers[0] ? ' (the default)' : ''}: bursts of ${tier.burstLimit}, ${tier.rateLimit} requests per second`,
      );
      expect(readmeRow).toContain(`${tier.name} tier: bursts of ${tier.burstLimit}, ${tier.rateLimit} per second`);
    }
    expect(row).toContain(`all keys together: bursts of ${api.throttleBurstLimit}, ${api.throttleRateLimit} requests per second`);
    expect(readmeRow).toContain(`(stage: ${api.throttleBurstLimit}, ${api.throttleRateLimit})`);
    const waf = api.wafRequestsPerIpPer5Minutes.toLocaleString('en-US');
    expect(row).toContain(`past ${waf} requests (of any kind) in 5 minutes`);
    expect(readmeRow).toContain(`past ${waf} requests in 5 minutes`);
  });

  it('say which stage sends the RateLimit headers and that Retry-After equals RateLimit-Reset', () => {
    expect(description).toContain('The local stage sends RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset');
    expect(description).toContain('a Retry-After equal to RateLimit-Reset');
    expect(description).toContain('which sends no RateLimit headers');
  });
});
