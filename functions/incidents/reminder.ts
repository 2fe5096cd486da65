import { remindIncidents } from './incidentTelegram.js';

/** Scheduled every minute: ends snoozes that ran out and reminds of open incidents (incidentTelegram.ts). */
export const handler = async () => remindIncidents();
