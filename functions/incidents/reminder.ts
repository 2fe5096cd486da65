import { incidentTick } from './escalation.js';
import { remindIncidents } from './incidentTelegram.js';

/**
 * Scheduled every minute: ends snoozes that ran out and reminds of open incidents
 * (incidentTelegram.ts), then escalates the unacknowledged ones and looks after parents and first
 * messages (escalation.ts, issue 45).
 */
export const handler = async () => {
  const now = Date.now();
  const reminders = await remindIncidents(now);
  await incidentTick(now);
  return reminders;
};
