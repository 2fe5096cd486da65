// Where each bank's portal is, from configuration: KBZ_PORTAL_URL / AYA_PORTAL_URL in the cloud
// (the real portals), else the local stack's sandbox banks (SANDBOX_BANK_URL + /kbz or /aya).
// The portal is per bank, not per account: a bank account row holds only its credentials.
import { Bank } from '../../../shared/enums';
import { config } from '../../lib/config';
import type { BankDriverContext, BankPortalRef, BankValue } from './bankDriver';

const PORTAL_ENV = new Map<BankValue, { env: string; sandboxPath: string }>([
  [Bank.values.KBZ, { env: 'KBZ_PORTAL_URL', sandboxPath: '/kbz' }],
  [Bank.values.AYA, { env: 'AYA_PORTAL_URL', sandboxPath: '/aya' }],
]);

/** Default bound of one portal call. */
export const BANK_CALL_TIMEOUT_MS = 15_000;

export function bankPortalFor(bank: BankValue, env: NodeJS.ProcessEnv = process.env): BankPortalRef {
  const entry = PORTAL_ENV.get(bank);
  if (!entry) throw new Error(`Unknown bank ${bank}`);
  const own = env[entry.env];
  if (own) return { url: own.replace(/\/+$/, '') };
  const sandbox = env.SANDBOX_BANK_URL;
  if (sandbox) return { url: sandbox.replace(/\/+$/, '') + entry.sandboxPath };
  throw new Error(`Missing configuration: ${entry.env} (or SANDBOX_BANK_URL locally)`);
}

/** The context of one poll of an account: its bank's portal, its credentials, the guard's allow-list. */
export function bankDriverContext(
  bank: BankValue,
  credentials: { user: string; pwd: string },
  opts: { timeoutMs?: number } = {},
): BankDriverContext {
  return {
    portal: bankPortalFor(bank),
    credentials,
    timeoutMs: opts.timeoutMs ?? BANK_CALL_TIMEOUT_MS,
    allowedPrivateHosts: config.allowedPrivateHosts,
  };
}
