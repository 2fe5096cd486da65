import { systemClock } from './clock.js';
import { dispatchPolls } from './dispatch.js';
import { bankStore } from './store.js';

/** Scheduled every minute: enqueues the bank polls due before the next tick (dispatch.ts). */
export const handler = async () => {
  await dispatchPolls({ store: bankStore(), clock: systemClock });
};
