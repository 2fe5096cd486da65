import { dispatchPolls } from './dispatch.js';
import { bankRuntime } from './runtime.js';

/** Scheduled every minute: enqueues the bank polls due before the next tick (dispatch.ts). */
export const handler = async () => {
  await dispatchPolls(bankRuntime());
};
