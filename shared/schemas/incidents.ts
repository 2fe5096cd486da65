import { z } from 'zod';
import { defineEnum, type EnumValue, Process, TestMode } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';

// Incidents (issue 27, item 1): one per (site, process, mode) while its checks keep failing. The
// first final failure opens it, later ones join it and count up, the first pass resolves it. People
// act on it from the console or from its Telegram message: acknowledge (no more reminders), snooze
// (its Telegram messages muted until a time), re-run the check, or start a maintenance window.

export const IncidentStatus = defineEnum({
  Open: [1, 'Open'],
  Acknowledged: [2, 'Acknowledged'],
  Snoozed: [3, 'Snoozed'],
  Resolved: [4, 'Resolved'],
});
export type IncidentStatusValue = EnumValue<typeof IncidentStatus>;

/** What happened to an incident, in its timeline. */
export const IncidentEventKind = defineEnum({
  Failure: ['failure', 'Failure'],
  Resolved: ['resolved', 'Resolved'],
  Acknowledged: ['acknowledged', 'Acknowledged'],
  Snoozed: ['snoozed', 'Snoozed'],
  SnoozeEnded: ['snooze_ended', 'Snooze ended'],
  Rerun: ['rerun', 'Re-run'],
  Maintenance: ['maintenance', 'Maintenance started'],
  Reminder: ['reminder', 'Reminder'],
});
export type IncidentEventKindValue = EnumValue<typeof IncidentEventKind>;

/** Snoozes the buttons offer, in minutes. */
export const SNOOZE_CHOICES = [60, 240] as const;

export const IncidentMessages = {
  action: 'Action must be acknowledge, snooze, rerun or maintenance',
  minutes: 'Snooze for 1 to 1440 minutes',
  resolved: 'This incident is resolved already',
} as const;

/** POST /incidents/{id}/action: what a console user does to an incident (the Telegram buttons do the same). */
export const IncidentActionBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('acknowledge') }).strict(),
    z
      .object({
        action: z.literal('snooze'),
        minutes: z
          .number({ error: IncidentMessages.minutes })
          .int(IncidentMessages.minutes)
          .min(1, IncidentMessages.minutes)
          .max(1440, IncidentMessages.minutes),
      })
      .strict(),
    z.object({ action: z.literal('rerun') }).strict(),
    z.object({ action: z.literal('maintenance') }).strict(),
  ],
  { error: IncidentMessages.action },
);
export type IncidentActionBody = z.infer<typeof IncidentActionBody>;

export const incidentListFields = {
  ...keyOrderFields,
  site_id: field.number({ sort: 'bounded', filter: 'key' }),
  site_name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  process: field.enum(Process, { sort: 'bounded', filter: 'bounded' }),
  mode: field.enum(TestMode, { sort: 'bounded', filter: 'bounded' }),
  status: field.enum(IncidentStatus, { sort: 'bounded', filter: 'key' }),
  opened_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  resolved_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  failures: field.number({ sort: 'bounded', filter: 'bounded' }),
  last_failure_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  last_message: field.text({ filter: 'bounded', search: true }),
  acknowledged_by: field.shown<{ id: number; nickname: string } | null>(),
  snoozed_until: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;

/** GET /incidents: one incident. */
export type Incident = RowOf<typeof incidentListFields>;

/** One entry of an incident's timeline: a failure with its subtask, or an action with who and when. */
export interface IncidentEvent {
  id: number;
  incident_id: number;
  kind: IncidentEventKindValue;
  at: number;
  /** A failure's or a pass's subtask, and its operation. */
  subtask_id: number | null;
  operation_id: number | null;
  /** Who acted; null for what the checks did. */
  actor: { id: number; nickname: string } | null;
  /** Where the action came from. */
  via: 'console' | 'telegram' | null;
  /** The failure's message, the snooze's end, the re-run's operation... */
  note: string;
  created_at: number;
}

/** GET /incidents/{id}: the incident and its timeline, oldest first. */
export interface IncidentDetail extends Incident {
  timeline: IncidentEvent[];
  /** The incident's message in the check chat, when one was sent. */
  telegram: { chat_id: string; message_id: number } | null;
}

/** POST /incidents/{id}/action: the incident after it, and the operation a re-run started. */
export interface IncidentActionReply {
  incident: Incident;
  operation_id: number | null;
  maintenance_id: number | null;
}
