/**
 * The SSRF guard for endpoint URLs: https only, and every address the host resolves to must be
 * public. Checked at registration and again before every delivery, whose connection is then
 * pinned to the checked address (deliver.ts), so a name cannot rebind between check and use.
 * `allowLocal` (the local-development setting) also admits http and loopback addresses.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses. Injected in tests (no DNS there). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/**
 * How long a host may take to resolve. Longer, and it counts as a host that does not resolve
 * (a registration answers 422, a delivery attempt fails and is retried): a resolver that never
 * answered held the attempt, past its send's timeout and its claim's lease. Under the send's
 * SEND_TIMEOUT_MS (send.ts), whose deadline counts the time resolving took.
 */
export const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * One resolution per host at a time: a caller that joins one under way shares its answer. A
 * caller that gives up (RESOLVE_TIMEOUT_MS) leaves the system's lookup running, which holds a
 * thread of Node's small thread pool (file reads wait for them too) until the system resolver
 * gives up; the next attempts for that host join it instead of taking another thread each.
 */
export function onePerHost(resolve: Resolver): Resolver {
  const pending = new Map<string, Promise<ResolvedAddress[]>>();
  return (host) => {
    let p = pending.get(host);
    if (!p) {
      p = resolve(host).finally(() => pending.delete(host));
      pending.set(host, p);
    }
    return p;
  };
}

/**
 * The system's resolver (getaddrinfo: /etc/hosts, search domains, then DNS), as every other
 * program on the machine resolves: `localhost` and names of the hosts file keep working.
 */
export const systemResolver: Resolver = onePerHost(async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })),
);

export interface GuardOptions {
  resolve: Resolver;
  /** Local development and tests: also allow http URLs and loopback addresses. */
  allowLocal: boolean;
  /** How long the host may take to resolve (default RESOLVE_TIMEOUT_MS). */
  resolveTimeoutMs?: number;
}

/** A URL the guard admitted, with the addresses it checked (connect to one of these only). */
export interface CheckedTarget {
  url: URL;
  host: string;
  addresses: ResolvedAddress[];
}

/** Why a URL is refused. `unresolved`: its host did not resolve, which may pass (a DNS outage, a name not yet published). */
export class RefusedTarget extends Error {
  constructor(
    message: string,
    readonly unresolved = false,
  ) {
    super(message);
  }
}

/** Why an address is not public, or null when it is. */
export function addressRefusal(address: string, allowLocal: boolean): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let ip = ipaddr.parse(address);
  let via = '';
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const range = ipv6Range(v6);
    const embedded = embeddedIPv4(v6, range);
    if (embedded === 'refuse') return `${address} is in the IPv6 ${range} range`;
    if (embedded) {
      ip = embedded;
      via = ` (embedded in ${address}, ${range})`;
    }
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLocal) return null;
  const name = RANGE_NAMES[range];
  return name ? `${ip.toString()}${via} is ${name} address` : `${ip.toString()}${via} is in the ${range} range`;
}

/** ipaddr.js's ranges in words, each with its article; another range is named as ipaddr.js names it. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10)',
  private: 'a private',
  reserved: 'a reserved',
  uniqueLocal: 'a unique-local (private)',
  deprecatedSiteLocal: 'a site-local (private)',
};

const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * ipaddr.js's range of an IPv6 address, with two it does not name: the deprecated
 * IPv4-compatible form `::a.b.c.d` (::/96 but :: and ::1, which it calls unicast) and the
 * local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215, which it counts as the well-known prefix,
 * though the IPv4 address sits elsewhere in it).
 */
function ipv6Range(ip: ipaddr.IPv6): string {
  if (ip.match(LOCAL_NAT64)) return 'local-use NAT64 (64:ff9b:1::/48)';
  const range = ip.range();
  if (range === 'unicast' && ip.toByteArray().slice(0, 12).every((x) => x === 0)) return 'IPv4-compatible (::/96)';
  return range;
}

/** The IPv4 address an IPv6 form carries (mapped, compatible, translated, NAT64, 6to4); 'refuse' for Teredo and local-use NAT64. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | 'refuse' | null {
  const b = ip.toByteArray();
  switch (range) {
    case 'ipv4Mapped':
    case 'IPv4-compatible (::/96)':
    case 'rfc6145':
    case 'rfc6052':
      return new ipaddr.IPv4(b.slice(12, 16));
    case '6to4':
      return new ipaddr.IPv4(b.slice(2, 6));
    case 'teredo':
    case 'local-use NAT64 (64:ff9b:1::/48)':
      return 'refuse';
    default:
      return null;
  }
}

/** Checks the URL and every address its host resolves to; throws RefusedTarget with the reason. */
export async function checkTarget(raw: string, opts: GuardOptions): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTarget('not a URL');
  }
  if (url.protocol !== 'https:' && !(opts.allowLocal && url.protocol === 'http:')) {
    throw new RefusedTarget(`only https URLs are allowed (got ${url.protocol.replace(':', '')})`);
  }
  if (url.username || url.password) throw new RefusedTarget('URLs with credentials are not allowed');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    addresses = await resolveWithin(opts.resolve, host, opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS);
    if (addresses.length === 0) throw new RefusedTarget(`the host ${host} does not resolve`, true);
  }
  for (const a of addresses) {
    const why = addressRefusal(a.address, opts.allowLocal);
    if (why) throw new RefusedTarget(host === a.address ? `${why}; only public addresses are allowed` : `${host} resolves to ${a.address}: ${why}; only public addresses are allowed`);
  }
  return { url, host, addresses };
}

/** The host's addresses; a RefusedTarget (unresolved) when it fails to resolve, or has not within `ms`. */
async function resolveWithin(resolve: Resolver, host: string, ms: number): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RefusedTarget(`the host ${host} did not resolve within ${ms / 1000} s`, true)), ms);
  });
  const answer = resolve(host).catch((e: unknown) => {
    throw new RefusedTarget(`the host ${host} does not resolve (${(e as Error).message})`, true);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
