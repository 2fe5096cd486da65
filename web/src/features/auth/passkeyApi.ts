// Passkeys over the API (docs/sign-in.md): each ceremony is the server's options, the browser's
// WebAuthn call through @simplewebauthn/browser, then the server's verification of the answer.
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { LoginAnswer, PasskeySummary } from '@shared/schemas/auth';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/**
 * The browser's two ceremonies, called through this object: the web tests stand in for the
 * authenticator with vi.spyOn on it. They share one module graph a worker (vitest.config.ts), where a
 * vi.mock of the library misses the copy a file that ran before had already loaded.
 */
export const browserWebAuthn = { startRegistration, startAuthentication };

export const passkeysQuery = {
  queryKey: queryKeys.single('passkeys'),
  queryFn: () => request<PasskeySummary[]>({ url: '/me/passkeys' }),
};

/**
 * Registers a passkey of the signed-in user under `name`: the current password gets the options,
 * then the browser asks for the device's lock.
 */
export async function registerPasskey(name: string, password: string): Promise<PasskeySummary> {
  const optionsJSON = await request<Parameters<typeof startRegistration>[0]['optionsJSON']>({
    method: 'POST',
    url: '/me/passkeys/options',
    data: { password },
    failureTip: 'Could not add the passkey.',
  });
  const response = await browserWebAuthn.startRegistration({ optionsJSON }).catch(browserRefusal);
  return request<PasskeySummary>({
    method: 'POST',
    url: '/me/passkeys',
    data: { name, response },
    successTip: 'Passkey added.',
    failureTip: 'Could not add the passkey.',
  });
}

export const renamePasskey = (id: string, name: string) =>
  request<PasskeySummary>({
    method: 'PUT',
    url: `/me/passkeys/${encodeURIComponent(id)}`,
    data: { name },
    failureTip: 'Could not rename the passkey.',
  });

export const removePasskey = (id: string) =>
  request<PasskeySummary>({
    method: 'DELETE',
    url: `/me/passkeys/${encodeURIComponent(id)}`,
    successTip: 'Passkey removed.',
    failureTip: 'Could not remove the passkey.',
  });

/**
 * Signs in with a passkey: alone (no ticket: the browser offers the passkeys it holds for this site)
 * or as the second step of a password sign-in (its ticket). Failures are the caller's to show.
 */
export async function signInWithPasskey(ticket?: string): Promise<LoginAnswer> {
  const optionsJSON = await request<Parameters<typeof startAuthentication>[0]['optionsJSON']>({
    method: 'POST',
    url: '/login/passkey/options',
    data: ticket ? { ticket } : {},
    silent: true,
  });
  const response = await browserWebAuthn.startAuthentication({ optionsJSON }).catch(browserRefusal);
  return request<LoginAnswer>({
    method: 'POST',
    url: '/login/passkey',
    data: ticket ? { ticket, response } : { response },
    silent: true,
  });
}

/** The browser's WebAuthn refusal (cancelled, timed out, no passkey here), said in the console's words. */
export class PasskeyBrowserError extends Error {
  override name = 'PasskeyBrowserError';
}

function browserRefusal(error: unknown): never {
  // Cancelling the browser's dialog and letting it time out look the same to a page (NotAllowedError).
  const cancelled =
    (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') ||
    (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'));
  const known = error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
  throw new PasskeyBrowserError(
    known
      ? 'This device holds a passkey of yours already.'
      : cancelled
        ? 'The passkey request was cancelled or timed out.'
        : 'This browser could not use a passkey here.',
    { cause: error },
  );
}

/**
 * Where passkeys work on this page's address. WebAuthn takes no IP address as the site, so the local
 * stack's `http://127.0.0.1:<port>` has them at `http://localhost:<port>` (the server's relying party
 * says the same: functions/auth/relyingParty.ts); any other IP address has none.
 */
export function passkeyPlace(
  location: Pick<Location, 'hostname' | 'href'> = window.location,
): { kind: 'here' } | { kind: 'elsewhere'; url: string } | { kind: 'none' } {
  const host = location.hostname.replace(/^\[|\]$/g, '');
  const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  if (!ipv4 && !host.includes(':')) return { kind: 'here' };
  if (host === '::1' || host.startsWith('127.')) {
    const url = new URL(location.href);
    url.hostname = 'localhost';
    return { kind: 'elsewhere', url: url.href };
  }
  return { kind: 'none' };
}
