import { sweepFollowUps } from '../lib/db/outbox.js';
import { type StartupEvent, startBegan } from '../lib/startupEvent.js';
import './followUpKinds.js';

/**
 * Applies the follow-ups their writers did not (lib/db/outbox.ts): scheduled every minute, for the
 * entries older than a few seconds; at a local start, for every entry written before the start
 * began (nothing of the previous run is still applying them), before the queues are served.
 */
export const handler = async (event?: Partial<StartupEvent>) =>
  sweepFollowUps(event?.source === 'patrol.local' ? { before: startBegan(event) } : {});
