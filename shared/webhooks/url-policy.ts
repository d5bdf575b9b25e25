/**
 * Which URLs the API will POST events to (server-side request forgery). A webhook URL is chosen by
 * the integrator and called from inside the API's network, so it must not reach the API's own
 * neighbours: loopback, private and carrier-grade NAT ranges, link-local (where cloud metadata
 * services live), multicast, reserved and unspecified addresses, in IPv4 and IPv6 alike, an IPv4
 * address wrapped in IPv6 included. A host name is judged by every address it resolves to, here
 * at creation and again before each delivery (DNS can change in between).
 *
 * `WEBHOOK_URL_ALLOWLIST` (comma-separated host names, such as `localhost,127.0.0.1`) lets a
 * developer's machine or the sandbox stage call a local receiver over http; the prod stage
 * ignores it, so no configuration can open prod up. `npm start` defaults it to the loopback hosts
 * (LOCAL_WEBHOOK_HOSTS), so a developer can watch deliveries on their own machine.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../errors';
import { deploymentStage, type DeploymentStage } from '../public-url';

/** WEBHOOK_URL_ALLOWLIST's default on the local stage (`npm start`): the loopback receivers, as URL.hostname spells them. */
export const LOCAL_WEBHOOK_HOSTS = 'localhost,127.0.0.1,[::1]';

export type AddressClass =
  'unspecified' | 'loopback' | 'private' | 'carrier_grade_nat' | 'link_local' | 'metadata' | 'multicast' | 'reserved' | 'documentation';

export type Resolver = (host: string) => Promise<string[]>;

export interface UrlPolicy {
  stage: DeploymentStage;
  /** Host names exempt from the https and address rules (never on prod). */
  allowlist: ReadonlySet<string>;
  resolve: Resolver;
}

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export function urlPolicy(env: NodeJS.ProcessEnv = process.env, resolve: Resolver = systemResolver): UrlPolicy {
  const stage = deploymentStage();
  const listed = (env.WEBHOOK_URL_ALLOWLIST ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  return { stage, allowlist: new Set(stage === 'prod' ? [] : listed), resolve };
}

/** Checked in this order: the first list holding an address names its class (metadata before link-local, loopback before the unspecified block). */
const CHECK_ORDER: AddressClass[] = [
  'metadata',
  'loopback',
  'unspecified',
  'private',
  'carrier_grade_nat',
  'link_local',
  'multicast',
  'documentation',
  'reserved',
];

/** [first address, prefix length, class]. */
const IPV4_RANGES: [string, number, AddressClass][] = [
  ['169.254.169.254', 32, 'metadata'],
  ['100.100.100.200', 32, 'metadata'],
  ['192.0.0.192', 32, 'metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier_grade_nat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_RANGES: [string, number, AddressClass][] = [
  ['fd00:ec2::254', 128, 'metadata'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link_local'],
  ['fec0::', 10, 'private'], // site-local, deprecated
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 32, 'reserved'], // Teredo hides the IPv4 address it reaches
  ['100::', 64, 'reserved'], // discard-only
  ['::', 96, 'reserved'], // IPv4-compatible addresses of no forbidden IPv4 range
];

/** 6to4 (2002::/16) carries an IPv4 address in its second and third groups. */
function sixToFour(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`;
}

/**
 * One BlockList per class. An IPv4 range covers the IPv6 addresses that reach it too: BlockList
 * matches IPv4-mapped addresses (::ffff:a.b.c.d) itself; the IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::/96) and 6to4 forms are added as IPv6 subnets.
 */
const BLOCK_LISTS = new Map(CHECK_ORDER.map((name) => [name, new BlockList()]));
for (const [first, prefix, name] of IPV4_RANGES) {
  const list = BLOCK_LISTS.get(name)!;
  list.addSubnet(first, prefix, 'ipv4');
  list.addSubnet(`::${first}`, 96 + prefix, 'ipv6');
  list.addSubnet(`64:ff9b::${first}`, 96 + prefix, 'ipv6');
  list.addSubnet(sixToFour(first), 16 + prefix, 'ipv6');
}
for (const [first, prefix, name] of IPV6_RANGES) BLOCK_LISTS.get(name)!.addSubnet(first, prefix, 'ipv6');

/** The forbidden class of an IP address, or undefined for a public one. */
export function classifyAddress(address: string): AddressClass | undefined {
  // A zone index (fe80::1%eth0) names the interface, not the address.
  const bare = address.split('%')[0];
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [name, list] of BLOCK_LISTS) if (list.check(bare, type)) return name;
  return undefined;
}

/** URL.hostname keeps IPv6 brackets; lookups and isIP want the bare address. */
const bareHost = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/** Parses a webhook URL and refuses what the policy forbids (400 on `param`); the URL as stored. */
export function parseEndpointUrl(value: string, policy: UrlPolicy, param = 'url'): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError('parameter_invalid', { param, hint: 'The url must be an absolute URL such as https://example.com/webhooks.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('parameter_invalid', { param, hint: 'The url must use https.' });
  }
  if (url.username || url.password) {
    throw new ApiError('parameter_invalid', { param, hint: 'The url must not carry credentials; verify deliveries by their signature instead.' });
  }
  if (url.protocol === 'http:' && !policy.allowlist.has(url.hostname)) {
    throw new ApiError('webhook_url_insecure', {
      param,
      hint:
        policy.stage === 'prod'
          ? 'The url must use https.'
          : `The url must use https, unless its host is on WEBHOOK_URL_ALLOWLIST (comma-separated host names) of this ${policy.stage} server${policy.stage === 'local' ? `; npm start defaults it to ${LOCAL_WEBHOOK_HOSTS}` : ''}.`,
    });
  }
  return url;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is forbidden. Returns the
 * addresses (the delivery connects to one of them, so a second lookup cannot swap in another).
 */
export async function checkEndpointAddress(url: URL, policy: UrlPolicy, param = 'url'): Promise<string[]> {
  const host = bareHost(url.hostname);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new ApiError('webhook_url_unresolvable', { param, hint: `${host} does not resolve to any address.` });
  }
  if (policy.allowlist.has(url.hostname)) return addresses;
  for (const address of addresses) {
    const forbidden = classifyAddress(address);
    if (forbidden) {
      throw new ApiError('webhook_url_forbidden_address', {
        param,
        hint: `${host === address ? host : `${host} resolves to ${address}, which`} is a ${forbidden.replaceAll('_', ' ')} address; webhooks go to public addresses only.`,
      });
    }
  }
  return addresses;
}

/** Both checks, as creating or changing an endpoint runs them. */
export async function checkEndpointUrl(value: string, policy: UrlPolicy, param = 'url'): Promise<string> {
  const url = parseEndpointUrl(value, policy, param);
  await checkEndpointAddress(url, policy, param);
  return url.toString();
}
