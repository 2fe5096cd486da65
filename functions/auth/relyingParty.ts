import { isIP } from 'node:net';
import { PasskeysUnavailableError } from './passkeyErrors.js';

/** Who the passkeys belong to: the RP ID (a host name) and the origin a browser must answer from. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

const isLoopbackIp = (host: string) => host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * The relying party of the console at `publicUrl` (PUBLIC_URL: the console's own address; in the
 * cloud its domain). WebAuthn takes only a domain name as RP ID, never an IP address, so the local
 * stack's default `http://127.0.0.1:<port>` becomes `localhost` with the origin
 * `http://localhost:<port>`: the same server, and a secure context browsers allow passkeys in.
 * Any other IP address has no domain to stand for: passkeys are unavailable there.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return { id: host, origin: url.origin, name: 'Patrol' };
  if (!isLoopbackIp(host)) throw new PasskeysUnavailableError();
  const local = new URL(url.origin);
  local.hostname = 'localhost';
  return { id: 'localhost', origin: local.origin, name: 'Patrol' };
}
