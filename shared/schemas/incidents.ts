import { z } from 'zod';
import { Bank, defineEnum, type EnumValue, Process, TestMode } from '../enums.js';
import { field, keyOrderFields, type RowOf, type TypedField } from '../listFields.js';
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

/**
 * How loud an incident is (issue 45): it decides when escalation starts (critical at once, warning
 * after `alerts.escalate_after_minutes`, info never). A check incident is a warning; a bank rule
 * gives its own; a parent takes the loudest of its children.
 */
export const IncidentSeverity = defineEnum({
  Info: ['info', 'Info'],
  Warning: ['warning', 'Warning'],
  Critical: ['critical', 'Critical'],
});
export type IncidentSeverityValue = EnumValue<typeof IncidentSeverity>;

/**
 * Why a parent incident holds its children (issue 45, docs/incidents.md "Correlated incidents"):
 * one check failing on many sites, one bank's accounts failing together, or the checker itself
 * (a control site failing).
 */
export const IncidentCause = defineEnum({
  SameCheck: ['same_check', 'Same check'],
  SameBank: ['same_bank', 'Same bank'],
  Checker: ['checker', 'Checker unhealthy'],
});
export type IncidentCauseValue = EnumValue<typeof IncidentCause>;

/**
 * What an incident is about (issue 45): a check's (site, process, mode), or a bank account (its
 * status or staleness, or one alert rule on it). Rows stored before issue 45 have no kind: checks.
 */
export const IncidentKind = defineEnum({
  Check: ['check', 'Check'],
  Bank: ['bank', 'Bank'],
});
export type IncidentKindValue = EnumValue<typeof IncidentKind>;

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
  Escalated: ['escalated', 'Escalated'],
  // A bank incident's actions (issue 45).
  Polled: ['polled', 'Polled now'],
  Disabled: ['disabled', 'Account disabled'],
  Grouped: ['grouped', 'Grouped'],
});
export type IncidentEventKindValue = EnumValue<typeof IncidentEventKind>;

/** Snoozes the buttons offer, in minutes. */
export const SNOOZE_CHOICES = [60, 240] as const;

export const IncidentMessages = {
  action: 'Action must be acknowledge, snooze, rerun, maintenance, poll or disable',
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
    // A bank incident's (issue 45): poll its account now, or disable the account.
    z.object({ action: z.literal('poll') }).strict(),
    z.object({ action: z.literal('disable') }).strict(),
  ],
  { error: IncidentMessages.action },
);
export type IncidentActionBody = z.infer<typeof IncidentActionBody>;

export const incidentListFields = {
  ...keyOrderFields,
  kind: field.enum(IncidentKind, { filter: 'bounded' }),
  // A check incident's; null on a bank incident.
  site_id: field.number<number | null>({ sort: 'bounded', filter: 'key' }),
  site_name: field.text<string | null>({ sort: 'bounded', filter: 'bounded', search: true }),
  process: field.enum(Process, { sort: 'bounded', filter: 'bounded' }) as TypedField<EnumValue<typeof Process> | null>,
  mode: field.enum(TestMode, { sort: 'bounded', filter: 'bounded' }) as TypedField<EnumValue<typeof TestMode> | null>,
  // A bank incident's account (its bank and login name as the account list shows them), and the
  // alert rule that opened it (null: the account's status or staleness); null on a check incident.
  bank_account_id: field.number<number | null>({ filter: 'bounded' }),
  bank_name: field.enum(Bank, { filter: 'bounded' }) as TypedField<EnumValue<typeof Bank> | null>,
  account_user: field.text<string | null>({ filter: 'bounded', search: true }),
  rule_id: field.number<number | null>({ filter: 'bounded' }),
  rule_name: field.text<string | null>(),
  status: field.enum(IncidentStatus, { sort: 'bounded', filter: 'key' }),
  opened_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  resolved_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  failures: field.number({ sort: 'bounded', filter: 'bounded' }),
  last_failure_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  last_message: field.text({ filter: 'bounded', search: true }),
  acknowledged_by: field.shown<{ id: number; nickname: string } | null>(),
  snoozed_until: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  severity: field.enum(IncidentSeverity, { sort: 'bounded', filter: 'bounded' }),
  /** A child's parent incident, else null (issue 45). */
  parent_id: field.number<number | null>({ filter: 'bounded' }),
  /** A parent's cause; null on every other incident. */
  cause: field.shown<IncidentCauseValue | null>(),
  /** A parent's children that are not resolved (a child that resolves leaves); 0 on others. */
  children: field.number({ sort: 'bounded', filter: 'bounded' }),
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
