// Which driver talks to which portal. Each bank has a default driver (the one that speaks its
// portal, the sandbox locally); a more specific driver (another portal version, a test double) is
// one `registerBankDriver` call in its own module, so the poller never changes when one is added.
import { ayaDriver } from './ayaDriver';
import type { BankDriver, BankPortalRef, BankValue } from './bankDriver';
import { kbzDriver } from './kbzDriver';

export interface BankDriverEntry {
  driver: BankDriver;
  /** True when the driver knows this account's portal (by bank, host...). */
  matches(target: { bank: BankValue; portal: BankPortalRef }): boolean;
}

const entries: BankDriverEntry[] = [];
const defaults = new Map<BankValue, BankDriver>([kbzDriver, ayaDriver].map((d) => [d.bank, d]));

/** Replaces the driver a bank uses unless a registered entry claims the portal (KBZ and AYA have one). */
export function setDefaultBankDriver(driver: BankDriver): void {
  defaults.set(driver.bank, driver);
}

/** Later registrations win over earlier ones, so an override can be registered in tests. */
export function registerBankDriver(entry: BankDriverEntry): () => void {
  entries.unshift(entry);
  return () => {
    const i = entries.indexOf(entry);
    if (i >= 0) entries.splice(i, 1);
  };
}

/** The driver for an account: the first registered match, else its bank's default. */
export function driverForBank(bank: BankValue, portal: BankPortalRef): BankDriver {
  const found = entries.find((e) => e.matches({ bank, portal }))?.driver ?? defaults.get(bank);
  if (!found) throw new Error(`No bank driver for bank ${bank}`);
  return found;
}
