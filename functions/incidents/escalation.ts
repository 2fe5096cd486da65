import { IncidentEventKind, IncidentSeverity, IncidentStatus } from '../../shared/schemas/incidents.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import { writeSequence } from '../lib/db/faults.js';
import { logger } from '../lib/logger.js';
import { maintenanceInForce } from '../maintenance/service.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { settleEmptyParents, underOpenParent } from './correlation.js';
import { escalatedTo } from './incidentTelegram.js';
import { enqueueIncidentSync } from './incidentQueue.js';
import { toIncident } from './service.js';
import { incidentStore, type StoredIncident } from './store.js';

// Escalation (issue 45, docs/incidents.md "Escalation"): an incident nobody acknowledged, snoozed or
// put under maintenance escalates in steps, run by the minute tick that sends reminders
// (reminder.ts): step 1 after `alerts.escalate_after_minutes` to the escalation chat (TG settings'
// `escalation_chat_id`), step 2 after as long again to every linked super user's private chat.
// Critical incidents take step 1 at once, info ones never escalate; 0 turns it off. A child of an
// open parent does not escalate on its own: its parent does.
//
// Each step is taken once by a conditional write (`escalation_step` from k-1 to k, with
// `escalation_done` false); its timeline entry (under an id its mark names) and the message sync
// follow, and `escalation_done` last, so a tick after a crash completes a step it finds undone and
// never takes it twice. The messages are sent by the notifier's sync (incidentTelegram.ts
// `sendEscalations`), once per (step, chat).

const { Open, Resolved } = IncidentStatus.values;

/** The last step: the super users' own chats. */
export const LAST_STEP = 2;

/** When step `next` (1 or 2) is due, or undefined when the incident never escalates. */
export function stepDueAt(incident: StoredIncident, next: number, afterMs: number): number | undefined {
  const severity = incident.severity ?? IncidentSeverity.values.Warning;
  if (afterMs <= 0 || severity === IncidentSeverity.values.Info || next > LAST_STEP) return undefined;
  const from = incident.escalation_from ?? incident.opened_at;
  // Critical: step 1 at once, step 2 one period later.
  const periods = severity === IncidentSeverity.values.Critical ? next - 1 : next;
  return from + periods * afterMs;
}

/** The step's timeline entry, then its sync, then the step marked done: a run again completes it. */
async function completeStep(incident: StoredIncident, now: number): Promise<void> {
  const store = incidentStore();
  const step = incident.escalation_step ?? 0;
  const mark = await store.claimCause(`escalation:${incident.id}:${step}`, incident.id);
  if (mark.eventId !== undefined && (!mark.again || !(await store.hasEvent(incident.id, mark.eventId))))
    await store.addEvent(
      {
        incident_id: incident.id,
        kind: IncidentEventKind.values.Escalated,
        at: now,
        subtask_id: null,
        operation_id: null,
        actor: null,
        via: null,
        note: `Escalated to ${escalatedTo(step)}`,
      },
      mark.eventId,
    );
  await enqueueIncidentSync(incident.id, undefined, undefined, true);
  await store.update(incident.id, { escalation_done: true });
}

/**
 * The tick's escalation: each open incident whose next step is due takes it. Answers the incidents
 * that escalated (a step taken or completed). `now` is the tick's time (tests move it).
 */
export async function escalateIncidents(now = Date.now()): Promise<number[]> {
  const store = incidentStore();
  const { alerts } = await getSystemConfig();
  const afterMs = alerts.escalate_after_minutes * 60_000;
  const groupWaitMs = alerts.group_wait_seconds * 1000;
  const escalated: number[] = [];
  for (const incident of await store.unresolved()) {
    // One step of one incident is a write sequence (the crash tests' `incident_escalation`).
    const stepped = await writeSequence('incident_escalation', () => escalateOne(incident, afterMs, groupWaitMs, now));
    if (stepped) escalated.push(incident.id);
  }
  return escalated;
}

/** Takes the incident's next step if it is due, or completes one a crash left undone; true if either. */
async function escalateOne(
  incident: StoredIncident,
  afterMs: number,
  groupWaitMs: number,
  now: number,
): Promise<boolean> {
  const store = incidentStore();
  try {
    const step = incident.escalation_step ?? 0;
    // A step taken before a crash is completed whatever has happened since: its entry is history.
    if (step > 0 && incident.escalation_done === false) {
      await completeStep(incident, now);
      return true;
    }
    if (toIncident(incident, now).status !== Open) return false;
    const due = stepDueAt(incident, step + 1, afterMs);
    // Not before the group wait: the incident may yet go under a parent (which escalates instead),
    // and its own message, which the step edits, is not sent before then.
    if (due === undefined || now < Math.max(due, incident.opened_at + groupWaitMs)) return false;
    if (incident.site_id !== null && (await maintenanceInForce(incident.site_id, now))) return false;
    if (await underOpenParent(incident)) return false;
    const taken = await store.update(
      incident.id,
      { escalation_step: step + 1, escalation_done: false },
      { expect: { escalation_step: incident.escalation_step, status: incident.status } },
    );
    await completeStep(taken, now);
    return true;
  } catch (error) {
    // Changed meanwhile (acknowledged, another tick): this tick leaves it.
    if (!(error instanceof ConditionFailedError)) throw error;
    return false;
  }
}

/** How long after its group wait a first message that has not gone out is asked for again. */
const FIRST_SEND_BACKSTOP_MS = 60_000;
/** Incidents older than this are not looked at by the backstop (maintenance or a snooze kept them quiet). */
const BACKSTOP_HORIZON_MS = 10 * 60_000;

/**
 * The group wait's backstop: a check incident whose delayed sync was lost (a queue that refused it)
 * and that has sent nothing a minute after its wait is synced again by the tick.
 */
export async function syncOverdueFirstMessages(now = Date.now()): Promise<number[]> {
  const waitMs = (await getSystemConfig()).alerts.group_wait_seconds * 1000;
  const overdue = (await incidentStore().unresolved()).filter(
    (i) =>
      i.tg_message_id === undefined &&
      !i.parent_id &&
      i.status !== Resolved &&
      now - i.opened_at >= waitMs + FIRST_SEND_BACKSTOP_MS &&
      now - i.opened_at < BACKSTOP_HORIZON_MS,
  );
  for (const i of overdue) await enqueueIncidentSync(i.id);
  return overdue.map((i) => i.id);
}

/** The rest of the minute tick beside reminders: escalation, empty parents, overdue first messages. */
export async function incidentTick(now = Date.now()): Promise<void> {
  for (const [name, run] of [
    ['escalation', () => escalateIncidents(now)],
    ['empty parents', () => settleEmptyParents(now)],
    ['first messages', () => syncOverdueFirstMessages(now)],
  ] as const) {
    // One part failing leaves the others to run; the next tick tries it again.
    await run().catch((error: unknown) => logger.error(`incident tick: ${name} failed`, { error: error as Error }));
  }
}
