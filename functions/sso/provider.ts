import * as oidc from 'openid-client';
import type { SsoConfig } from '../../shared/schemas/sso.js';
import { config } from '../lib/config.js';
import { guardedFetch } from '../lib/net/guardedFetch.js';
import { isAllowedPrivateHost } from '../lib/net/outboundUrlGuard.js';
import { SsoProviderUnavailableError } from './errors.js';

// The provider as openid-client knows it: its discovery document and Patrol's client, read once and
// kept for DISCOVERY_TTL_MS per issuer, client and secret (a changed setting is a new key). Every
// request openid-client makes (discovery, the token exchange, the signing keys) goes through the
// private-address guard; only a host the stage allows as private (the local sandbox) may be http.

const DISCOVERY_TTL_MS = 10 * 60_000;

let kept: { key: string; at: number; configuration: oidc.Configuration } | undefined;

/** http is for the local sandbox: a host on the allow-list of private hosts, nothing else. */
function insecureAllowed(issuer: URL): boolean {
  return (
    issuer.protocol === 'http:' &&
    isAllowedPrivateHost(issuer.hostname, issuer.port || '80', config.allowedPrivateHosts)
  );
}

/** The provider's configuration for Patrol's client; SsoProviderUnavailableError when it cannot be read. */
export async function providerConfiguration(
  sso: SsoConfig,
  clientSecret: string,
  now = Date.now(),
): Promise<oidc.Configuration> {
  const key = JSON.stringify([sso.issuer, sso.client_id, clientSecret]);
  if (kept && kept.key === key && now - kept.at < DISCOVERY_TTL_MS) return kept.configuration;
  const issuer = new URL(sso.issuer);
  try {
    const configuration = await oidc.discovery(issuer, sso.client_id, undefined, oidc.ClientSecretPost(clientSecret), {
      [oidc.customFetch]: guardedFetch() as oidc.CustomFetch,
      timeout: 10,
      ...(insecureAllowed(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    kept = { key, at: now, configuration };
    return configuration;
  } catch (error) {
    throw new SsoProviderUnavailableError({ cause: error });
  }
}

/** Forgets the kept configuration (a test that changes the provider, a refused ID token's keys). */
export function forgetProviderConfiguration(): void {
  kept = undefined;
}
