import { Bank } from '../../shared/enums.js';
import type { BankPortalRef, BankValue } from './drivers/bankDriver.js';

/**
 * Where each bank's portal is: BANK_PORTAL_KBZ / BANK_PORTAL_AYA (the local stack points them at
 * the sandbox portals; the cloud stage at the banks). Read per call, so tests can set them.
 */
export function portalFor(bank: BankValue): BankPortalRef {
  const name = Bank.label(bank);
  const url = process.env[`BANK_PORTAL_${name}`];
  if (!url) throw new Error(`Missing configuration: BANK_PORTAL_${name}`);
  return { url };
}
