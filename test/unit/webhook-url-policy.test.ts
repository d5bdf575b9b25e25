import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors';
import { checkEndpointUrl, classifyAddress, LOCAL_WEBHOOK_HOSTS, urlPolicy, type Resolver } from '../../shared/webhooks/url-policy';

const fakeDns: Record<string, string[]> = {
  'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'sneaky.example': ['127.0.0.1'],
  'mixed.example': ['93.184.216.34', '10.1.2.3'],
  'metadata.example': ['169.254.169.254'],
  'v6-private.example': ['fd12:3456::1'],
};
const resolve: Resolver = (host) => Promise.resolve(fakeDns[host] ?? []);

async function refusal(url: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: string; param?: string; hint: string }> {
  try {
    await checkEndpointUrl(url, urlPolicy(env, resolve));
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.options.param, hint: error.message };
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['100.127.255.255', 'carrier_grade_nat'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a00:1::', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '2606:2800:220:1:248:1893:25c8:1946',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });
});

describe('checkEndpointUrl', () => {
  const stage = process.env.STAGE_NAME;
  afterEach(() => {
    if (stage === undefined) delete process.env.STAGE_NAME;
    else process.env.STAGE_NAME = stage;
  });

  it('accepts a public https URL and normalises it', async () => {
    expect(await checkEndpointUrl('https://PUBLIC.example/hooks?x=1', urlPolicy({}, resolve))).toBe('https://public.example/hooks?x=1');
    expect(await checkEndpointUrl('https://93.184.216.34:8443/', urlPolicy({}, resolve))).toBe('https://93.184.216.34:8443/');
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://localhost.example.invalid./', undefined],
    ['https://10.0.0.8/', 'private'],
    ['https://100.64.1.1/', 'carrier grade nat'],
    ['https://169.254.169.254/latest/meta-data', 'metadata'],
    ['https://169.254.10.10/', 'link local'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://[::1]/', 'loopback'],
    ['https://[::]/', 'unspecified'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['https://[fe80::1]/', 'link local'],
    ['https://[fd00:ec2::254]/', 'metadata'],
    ['https://sneaky.example/', 'loopback'],
    ['https://mixed.example/', 'private'],
    ['https://metadata.example/', 'metadata'],
    ['https://v6-private.example/', 'private'],
  ])('refuses %s', async (url, label) => {
    const refused = await refusal(url);
    if (label === undefined) {
      expect(refused).toMatchObject({ code: 'webhook_url_unresolvable', param: 'url' });
      return;
    }
    expect(refused).toMatchObject({ code: 'webhook_url_forbidden_address', param: 'url' });
    expect(refused.hint).toContain(label);
  });

  it('refuses a host name that resolves to 127.0.0.1 on prod, naming the address', async () => {
    process.env.STAGE_NAME = 'prod';
    const refused = await refusal('https://sneaky.example/hook', { WEBHOOK_URL_ALLOWLIST: 'sneaky.example' });
    expect(refused).toMatchObject({ code: 'webhook_url_forbidden_address', param: 'url' });
    expect(refused.hint).toContain('sneaky.example resolves to 127.0.0.1');
  });

  it("row 9: allows every loopback spelling with npm start's default list, and names the variable when it refuses http", async () => {
    const local = urlPolicy({ WEBHOOK_URL_ALLOWLIST: LOCAL_WEBHOOK_HOSTS }, (host) => Promise.resolve(host === 'localhost' ? ['127.0.0.1', '::1'] : []));
    for (const url of ['http://localhost:4000/hook', 'http://127.0.0.1:4000/hook', 'http://[::1]:4000/hook'])
      expect(await checkEndpointUrl(url, local), url).toBe(url);
    const refused = await refusal('http://public.example/');
    expect(refused.hint).toContain('WEBHOOK_URL_ALLOWLIST');
    expect(refused.hint).toContain(`npm start defaults it to ${LOCAL_WEBHOOK_HOSTS}`);
    process.env.STAGE_NAME = 'sandbox';
    expect((await refusal('http://public.example/')).hint).toBe(
      'The url must use https, unless its host is on WEBHOOK_URL_ALLOWLIST (comma-separated host names) of this sandbox server.',
    );
    process.env.STAGE_NAME = 'prod';
    expect(await refusal('http://[::1]:4000/', { WEBHOOK_URL_ALLOWLIST: LOCAL_WEBHOOK_HOSTS })).toMatchObject({
      code: 'webhook_url_insecure',
      hint: 'The url must use https.',
    });
  });

  it('requires https, and allows http only for allowlisted hosts off prod', async () => {
    expect(await refusal('http://public.example/')).toMatchObject({ code: 'webhook_url_insecure', param: 'url' });
    expect(await refusal('http://localhost:4000/hook')).toMatchObject({ code: 'webhook_url_insecure' });
    const allow = { WEBHOOK_URL_ALLOWLIST: 'localhost, 127.0.0.1' };
    const local = urlPolicy(allow, (host) => Promise.resolve(host === 'localhost' ? ['127.0.0.1'] : []));
    expect(await checkEndpointUrl('http://localhost:4000/hook', local)).toBe('http://localhost:4000/hook');
    expect(await checkEndpointUrl('http://127.0.0.1:4000/hook', local)).toBe('http://127.0.0.1:4000/hook');
    // Another loopback spelling is not on the list.
    expect(await refusal('http://[::1]:4000/', allow)).toMatchObject({ code: 'webhook_url_insecure' });
    expect(await refusal('https://[::1]:4000/', allow)).toMatchObject({ code: 'webhook_url_forbidden_address' });
    process.env.STAGE_NAME = 'prod';
    expect(await refusal('http://localhost:4000/hook', allow)).toMatchObject({ code: 'webhook_url_insecure' });
    expect(await refusal('https://127.0.0.1:4000/hook', allow)).toMatchObject({ code: 'webhook_url_forbidden_address' });
  });

  it('refuses what is not an http URL, and credentials in it', async () => {
    expect(await refusal('not a url')).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(await refusal('ftp://public.example/')).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(await refusal('https://user:pw@public.example/')).toMatchObject({ code: 'parameter_invalid', param: 'url' });
  });
});
