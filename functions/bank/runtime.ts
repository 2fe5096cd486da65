import { rulesForAccount } from '../bankAlertRules/rulesForAccount.js';
import { isBankChatOn } from '../notifications/telegram/bankChatOn.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { type Clock, systemClock } from './clock.js';
import { type BankStore, bankStore } from './store.js';

// What the bank feature's entry points (poller, dispatcher, API, inbound webhook) hand to its
// functions: the store, the clock, the configured time zone and whether the bank chat is on. The
// functions take these as arguments and import none of them, so dependencies go one way: from the
// entry points in.

export interface BankRuntime {
  store: BankStore;
  clock: Clock;
  timeZone: () => Promise<string>;
  chatOn: () => Promise<boolean>;
  rulesFor?: typeof rulesForAccount;
}

let clock: Clock = systemClock;

/** Tests move time; production reads the system clock. */
export function useBankClock(next: Clock | undefined): void {
  clock = next ?? systemClock;
}

const configuredTimeZone = async () => (await getSystemConfig()).time_zone;

/** The bank's dependencies as they are in this process. */
export function bankRuntime(): BankRuntime {
  return { store: bankStore(), clock, timeZone: configuredTimeZone, chatOn: isBankChatOn, rulesFor: rulesForAccount };
}
