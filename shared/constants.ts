// Business constants of spec section 9 that both sides use and no schema owns yet. List protocol
// bounds live in listQuery.ts, password bounds in schemas/common.ts, codes in enums.ts.
import { Bank } from './enums.js';

/** Bank monitor interval bounds, in seconds ('Must between 5 and 120'). */
export const MONITOR_INTERVAL_MIN_S = 5;
export const MONITOR_INTERVAL_MAX_S = 120;

/** The bank a new bank account form starts with. */
export const DEFAULT_NEW_ACCOUNT_BANK = Bank.values.KBZ;

/** The first super user, created on an empty store: locally at start, in the cloud after the first deploy. */
export const FIRST_SUPER_USER = 'admin';
