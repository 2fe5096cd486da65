// The private-address guard of every URL Patrol calls or opens on someone's behalf (site URLs the
// checker opens, later bank webhooks and Telegram). A URL an operator saves must not reach the
// machine's own services, the private network or a cloud metadata endpoint: the checker would
// open it and record the page in a video every operator can watch (SSRF).
//
// Two checks, because the answer of DNS changes over time:
//   - at save time `assertOutboundUrl` refuses what is private now; a name that does not resolve
//     is accepted (DNS may be unreachable from where it is saved);
//   - at use time `resolveOutboundTarget` resolves again and names the one address to connect to,
//     so a caller that connects to exactly that address cannot be redirected or rebound elsewhere.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { hasUrlCredentials } from '../../../shared/schemas/common.js';
import { ValidationError } from '../errors.js';

/** Resolves a host name to all its addresses (node's dns.lookup with `all: true`). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundGuardOptions {
  /** `host` or `host:port` entries that may be private (config.allowedPrivateHosts; IPv6 as `[::1]:8080`). */
  allowedHosts?: readonly string[];
  /** Default: the system resolver. */
  resolve?: HostResolver;
}

/** Names that are metadata services whatever they resolve to (or before they resolve at all). */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);

/** Why a URL is refused, for the operator: says what the address is, never echoes secrets. */
export class OutboundUrlRefusedError extends ValidationError {
  override name = 'OutboundUrlRefusedError';
  constructor(
    readonly reason: string,
    field = 'url',
    /** The name did not resolve: refused at use time, accepted at save time. */
    readonly unresolved = false,
  ) {
    super({ [field]: `This address is not allowed: ${reason}` });
  }
}

const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The host name as compared: lower case, no IPv6 brackets, no trailing dot. */
function plainHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function defaultPort(url: URL): string {
  if (url.port) return url.port;
  return url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80';
}

/** True when `host` (any port) or `host:port` of the target is in the allow-list. */
export function isAllowedPrivateHost(hostname: string, port: string, allowedHosts: readonly string[]): boolean {
  const host = plainHost(hostname);
  const withPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return allowedHosts.some((entry) => {
    const e = entry.toLowerCase();
    return e === withPort || plainHost(e) === host;
  });
}

/**
 * Why an address must not be called, or undefined for a public unicast address. Anything that is
 * not plain global unicast is refused; IPv4 embedded in IPv6 (mapped, translated, NAT64) is judged
 * as the IPv4 address it reaches.
 */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
      const bytes = v6.toByteArray().slice(-4);
      ip = new ipaddr.IPv4(bytes);
    } else if (v6.parts.slice(0, 6).every((p) => p === 0)) {
      // ::a.b.c.d, the deprecated IPv4-compatible form (and ::, ::1).
      return range === 'loopback' ? 'loopback address' : 'reserved IPv6 address';
    }
  }
  const range = ip.range();
  if (range === 'unicast') return undefined;
  const names: Record<string, string> = {
    loopback: 'loopback address',
    private: 'private network address',
    linkLocal: 'link-local address (cloud metadata lives there)',
    uniqueLocal: 'unique-local (private) IPv6 address',
    unspecified: 'unspecified address (this machine)',
    carrierGradeNat: 'shared (carrier-grade NAT) address',
    multicast: 'multicast address',
    broadcast: 'broadcast address',
  };
  return names[range] ?? `reserved address (${range})`;
}

/** Why the host name alone is refused (metadata and localhost names), before any DNS. */
function blockedNameReason(host: string): string | undefined {
  if (METADATA_HOSTS.has(host)) return 'cloud metadata host';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback address';
  return undefined;
}

function parseHttpUrl(raw: string | URL): URL {
  const url = typeof raw === 'string' ? new URL(raw) : raw;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new OutboundUrlRefusedError('not http(s)');
  // Credentials in an address travel in clear to every list, export and audit row that shows it.
  if (hasUrlCredentials(url)) throw new OutboundUrlRefusedError('it contains a user name or password');
  return url;
}

export interface OutboundTarget {
  host: string;
  port: number;
  /** The address to connect to: checked, so the connection cannot land anywhere else. */
  address: string;
  /** The host is in the allow-list (its addresses were not judged). */
  allowListed: boolean;
}

/**
 * Use time: resolves the host and returns the address to connect to, or throws
 * OutboundUrlRefusedError. Every address of the name must be public: a name that answers with a
 * public and a private address could hand the private one to the next resolver.
 */
export async function resolveOutboundTarget(
  hostname: string,
  port: number,
  opts: OutboundGuardOptions = {},
): Promise<OutboundTarget> {
  const host = plainHost(hostname);
  const allowListed = isAllowedPrivateHost(host, String(port), opts.allowedHosts ?? []);
  const byName = blockedNameReason(host);
  if (byName && !allowListed) throw new OutboundUrlRefusedError(`${host} is a ${byName}`);
  if (ipaddr.isValid(host)) {
    const reason = allowListed ? undefined : blockedAddressReason(host);
    if (reason) throw new OutboundUrlRefusedError(`${host} is a ${reason}`);
    return { host, port, address: host, allowListed };
  }
  let addresses: { address: string }[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(host);
  } catch {
    throw new OutboundUrlRefusedError(`${host} does not resolve`, 'url', true);
  }
  if (addresses.length === 0) throw new OutboundUrlRefusedError(`${host} does not resolve`, 'url', true);
  if (!allowListed)
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address);
      if (reason) throw new OutboundUrlRefusedError(`${host} resolves to ${address}, a ${reason}`);
    }
  return { host, port, address: addresses[0].address, allowListed };
}

/**
 * Save time: refuses a URL whose host is, names or resolves to a private address, with a 400
 * naming the field. A name that does not resolve now is accepted; use time checks it again.
 */
export async function assertOutboundUrl(
  raw: string | URL,
  opts: OutboundGuardOptions & { field?: string } = {},
): Promise<void> {
  const field = opts.field ?? 'url';
  let url: URL;
  try {
    url = parseHttpUrl(raw);
  } catch (error) {
    if (error instanceof OutboundUrlRefusedError) throw new OutboundUrlRefusedError(error.reason, field);
    throw new OutboundUrlRefusedError('not a valid URL', field);
  }
  try {
    await resolveOutboundTarget(url.hostname, Number(defaultPort(url)), opts);
  } catch (error) {
    if (!(error instanceof OutboundUrlRefusedError)) throw error;
    if (error.unresolved) return;
    throw new OutboundUrlRefusedError(error.reason, field);
  }
}
