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
 * ignores it, so no configuration can open prod up.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ApiError } from '../errors';
import { deploymentStage, type DeploymentStage } from '../public-url';

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

const METADATA_ADDRESSES = new Set(['169.254.169.254', '100.100.100.200', '192.0.0.192']);

/** [first address as a number, prefix length, class], most specific first where they overlap. */
const IPV4_RANGES: [string, number, AddressClass][] = [
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

const ipv4Number = (address: string) => address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);

function classifyIpv4(address: string): AddressClass | undefined {
  if (METADATA_ADDRESSES.has(address)) return 'metadata';
  const value = ipv4Number(address);
  for (const [first, prefix, name] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    const start = ipv4Number(first);
    if (value >= start && value < start + size) return name;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups].map((group) => parseInt(group, 16));
}

const embeddedIpv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

function classifyIpv6(address: string): AddressClass | undefined {
  const g = ipv6Groups(address);
  const zeros = (count: number) => g.slice(0, count).every((group) => group === 0);
  if (zeros(8)) return 'unspecified';
  if (zeros(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses reach the IPv4 address.
  if (zeros(5) && g[5] === 0xffff) return classifyIpv4(embeddedIpv4(g[6], g[7]));
  if (zeros(6)) return classifyIpv4(embeddedIpv4(g[6], g[7])) ?? 'reserved';
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address too.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return classifyIpv4(embeddedIpv4(g[6], g[7]));
  if (g[0] === 0x2002) return classifyIpv4(embeddedIpv4(g[1], g[2]));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((group) => group === 0) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'link_local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved'; // Teredo hides the IPv4 address it reaches
  if (g[0] === 0x0100 && g.slice(1, 4).every((group) => group === 0)) return 'reserved'; // discard-only
  return undefined;
}

/** The forbidden class of an IP address, or undefined for a public one. */
export function classifyAddress(address: string): AddressClass | undefined {
  const family = isIP(address);
  if (family === 4) return classifyIpv4(address);
  if (family === 6) return classifyIpv6(address);
  return 'reserved';
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
          : 'The url must use https, unless its host is on WEBHOOK_URL_ALLOWLIST of this local or sandbox server.',
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
