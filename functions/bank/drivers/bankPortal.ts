// Where each bank's portal is, from configuration: BANK_PORTAL_KBZ / BANK_PORTAL_AYA (the real
// portals in the cloud; the local stack points them at its sandbox banks), else the sandbox banks
// at SANDBOX_BANK_URL + /kbz or /aya.
// The portal is per bank, not per account: a bank account row holds only its credentials.
import { Bank } from '../../../shared/enums';
import { config } from '../../lib/config';
import type { BankDriverContext, BankPortalRef, BankValue } from './bankDriver';

const PORTAL_ENV = new Map<BankValue, { env: string; sandboxPath: string }>([
  [Bank.values.KBZ, { env: 'BANK_PORTAL_KBZ', sandboxPath: '/kbz' }],
  [Bank.values.AYA, { env: 'BANK_PORTAL_AYA', sandboxPath: '/aya' }],
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
