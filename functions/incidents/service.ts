import { OperationName, RunStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type Incident,
  type IncidentActionBody,
  type IncidentActionReply,
  type IncidentDetail,
  IncidentEventKind,
  type IncidentEventKindValue,
  IncidentKind,
  IncidentSeverity,
  IncidentStatus,
} from '../../shared/schemas/incidents.js';
import type { ProcessValue, TestModeValue } from '../../shared/schemas/checks.js';
import { ConditionFailedError, type ListOutcome } from '../lib/db/entity.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { TooManyRequestsError } from '../lib/errors.js';
import { hitRateLimit } from '../lib/rateLimit.js';
import { extendMaintenanceNow } from '../maintenance/service.js';
import { siteRefs } from '../sites/service.js';
import { actOnBankIncident, type BankIncidentDeps } from './bankIncidentActions.js';
import { withKindServed } from './bankIncidents.js';
import { actOnChildren, childResolved, correlateCheckFailure } from './correlation.js';
import { IncidentNotFoundError, IncidentResolvedError } from './errors.js';
import { incidentHolding } from './holdingIncident.js';
import { enqueueIncidentSync } from './incidentQueue.js';
import { incidentStore, type StoredIncident } from './store.js';

// Incidents (docs/incidents.md): one per (site, process, mode) while its checks fail. The check
// engine reports each subtask's final end here once (recordIncidentResult); people act on an
// incident from the console or its Telegram buttons (actOnIncident). Every change is followed by a
// sync of its Telegram message (incidentTelegram.ts), through the notify queue.

const { Open, Acknowledged, Snoozed, Resolved } = IncidentStatus.values;

/** The end of a subtask, as the engine has it when the subtask has ended for good. */
export interface SubtaskEnd {
  id: number;
  operation_id: number;
  site_id: number;
  process: ProcessValue;
  mode: TestModeValue;
  status: number;
  msg: string;
  end_at: number | null;
}

export interface Actor {
  id: number;
  nickname: string;
}

/**
 * What an incident needs of the check engine, passed in by the entry point that composes them
 * (functions/api.ts): the engine reports to incidents, so incidents do not import the engine back.
 */
export interface IncidentDeps extends BankIncidentDeps {
  /** Starts a check (the Re-run); answers the operation. */
  startCheck(input: {
    siteIds: number[];
    points: { point: ProcessValue; modes: TestModeValue[] }[];
    name: typeof OperationName.values.SingleSite | typeof OperationName.values.MultiSites;
    operatorId: number;
    remark: string;
  }): Promise<{ id: number }>;
}

/**
 * How long a re-run holds its incident (issue 43): each is a real login to the site, and repeats can
 * lock the bot account. Its end, recorded on the incident, frees it earlier; a check that never
 * reports (a cancelled operation) frees it after this.
 */
export const RERUN_HOLD_MS = 10 * 60_000;
/** Re-runs one user may start in ten minutes, over every incident, from the console and Telegram. */
export const RERUN_LIMIT = { name: 'incident-rerun', limit: 5, windowSeconds: 600 };

const openKeyOf = (s: Pick<SubtaskEnd, 'site_id' | 'process' | 'mode'>) => `${s.site_id}:${s.process}:${s.mode}`;

/** The incident a row shows: stored bookkeeping left out. */
export function toIncident(row: StoredIncident, now = Date.now()): Incident {
  // A snooze that has run out reads as Open until the minute tick writes it back.
  const snoozeOver = row.status === Snoozed && (row.snoozed_until ?? 0) <= now;
  return {
    id: row.id,
    created_at: row.created_at,
    site_id: row.site_id,
    site_name: row.site_name,
    process: row.process,
    mode: row.mode,
    status: snoozeOver ? Open : row.status,
    opened_at: row.opened_at,
    resolved_at: row.resolved_at ?? null,
    failures: row.failures,
    last_failure_at: row.last_failure_at,
    last_message: row.last_message,
    acknowledged_by: row.acknowledged_by ?? null,
    snoozed_until: snoozeOver ? null : (row.snoozed_until ?? null),
    // Rows stored before issue 45 have no kind: they are checks'.
    kind: row.kind ?? IncidentKind.values.Check,
    bank_account_id: row.bank_account_id ?? null,
    bank_name: row.bank_name ?? null,
    account_user: row.account_user ?? null,
    rule_id: row.rule_id ?? null,
    rule_name: row.rule_name ?? null,
    // Rows stored before issue 45 have none of these: a check incident is a warning, alone.
    severity: row.severity ?? IncidentSeverity.values.Warning,
    parent_id: row.parent_id ?? null,
    cause: row.cause ?? null,
    children: row.children ?? 0,
  };
}

async function event(
  incident: Pick<StoredIncident, 'id'>,
  kind: IncidentEventKindValue,
  fields: {
    at: number;
    subtask_id?: number;
    operation_id?: number | null;
    actor?: Actor | null;
    via?: 'console' | 'telegram';
    note?: string;
  },
  /** The entry's id when a crash may run this again (a subtask's entry, named by its mark). */
  id?: number,
) {
  return incidentStore().addEvent(
    {
      incident_id: incident.id,
      kind,
      at: fields.at,
      subtask_id: fields.subtask_id ?? null,
      operation_id: fields.operation_id ?? null,
      actor: fields.actor ? { id: fields.actor.id, nickname: fields.actor.nickname } : null,
      via: fields.via ?? null,
      note: fields.note ?? '',
    },
    id,
  );
}

/** The open incident of the subtask's key: the one holding the claim, or a new one that takes it. */
async function openIncidentFor(sub: SubtaskEnd, at: number): Promise<StoredIncident> {
  const key = openKeyOf(sub);
  const { incident } = await incidentHolding('open', key, async () => {
    const name = (await siteRefs([sub.site_id])).get(sub.site_id)?.name ?? `site ${sub.site_id}`;
    return {
      site_id: sub.site_id,
      site_name: name,
      process: sub.process,
      mode: sub.mode,
      status: Open,
      opened_at: at,
      resolved_at: null,
      failures: 0,
      last_failure_at: at,
      last_message: sub.msg,
      acknowledged_by: null,
      snoozed_until: null,
      open_key: key,
      last_reminded_at: at,
      kind: IncidentKind.values.Check,
      bank_account_id: null,
      bank_name: null,
      account_user: null,
      rule_id: null,
      rule_name: null,
      severity: IncidentSeverity.values.Warning,
      parent_id: null,
      cause: null,
      children: 0,
    };
  });
  return incident;
}

/**
 * Records a subtask's final end on its incident: a failure opens the (site, process, mode)'s
 * incident or joins the open one and counts up; a pass resolves the open one. A flaky pass is a
 * pass. It is the follow-up of the end (`recordIncident`), so it may run again after a crash: the
 * subtask's id is claimed for its incident first, and a second run finds the claim and completes
 * what the first left undone (the count is guarded by the subtask until the timeline entry, written
 * after it, marks it; the message synced again), changing nothing the first one finished.
 */
export async function recordIncidentResult(sub: SubtaskEnd): Promise<void> {
  const store = incidentStore();
  const at = sub.end_at ?? Date.now();
  if (sub.status === RunStatus.values.Failed) {
    const { incidentId: id, again, eventId } = await store.claimSubtask(sub.id, (await openIncidentFor(sub, at)).id);
    let row: StoredIncident | undefined;
    // The timeline entry comes after the count: a run again that finds it has nothing to count.
    if (!again || !(await store.hasSubtaskEvent(id, sub.id))) {
      const counted = await store.countFailure(id, sub.id);
      // The re-run in flight has ended: the incident may be re-run again.
      const rerunOver = counted.rerun_operation_id === sub.operation_id && (counted.rerun_until ?? 0) > 0;
      row = await store.update(id, {
        last_failure_at: at,
        last_message: sub.msg,
        ...(rerunOver ? { rerun_until: 0 } : {}),
      });
      await event(
        { id },
        IncidentEventKind.values.Failure,
        { at, subtask_id: sub.id, operation_id: sub.operation_id, note: sub.msg },
        eventId,
      );
    }
    // Counted and entered: the count's guard is not needed any more (the incident's row stays small).
    await store.settleFailure(id, sub.id);
    // Siblings of one cause go under one parent, and the first message waits for them (issue 45).
    row ??= await store.get(id);
    if (row) await writeSequence('incident_correlation', () => correlateCheckFailure(row as StoredIncident, at));
    await enqueueIncidentSync(id);
    return;
  }
  if (sub.status !== RunStatus.values.Done) return;
  const open = await store.openId(openKeyOf(sub));
  if (open === undefined) return;
  const { incidentId: id, again, eventId } = await store.claimSubtask(sub.id, open);
  const resolved = await store.update(id, { status: Resolved, resolved_at: at });
  if (!again || !(await store.hasSubtaskEvent(id, sub.id)))
    await event(
      { id },
      IncidentEventKind.values.Resolved,
      { at, subtask_id: sub.id, operation_id: sub.operation_id, note: sub.msg },
      eventId,
    );
  await enqueueIncidentSync(id);
  // It leaves its parent, which resolves with its last child (issue 45).
  await writeSequence('incident_correlation', () => childResolved(resolved, at));
  // Last: while the key is held, a run again after a crash finds the incident to complete.
  await store.releaseOpen(openKeyOf(sub), id);
}

/**
 * Follow-up of a subtask's final end (functions/checks/engine.ts subtaskEndFollowUps): its result on
 * its (site, process, mode)'s incident, applied again after a crash without counting twice.
 */
export const recordIncident = defineFollowUp('incidents.record', (end: SubtaskEnd) => recordIncidentResult(end));

/**
 * Whether an operation's own Telegram summary goes out: only for operations none of whose subtasks
 * reached an incident. Those that did are told by their incidents' messages (docs/incidents.md).
 */
export async function operationSummaryWanted(operationId: number): Promise<boolean> {
  return !(await incidentStore().touchedByOperation(operationId));
}

export async function listIncidents(query: ListQuery): Promise<ListOutcome<Incident>> {
  const sort = query.sort.length ? query.sort : [{ field: 'created_at', order: 'desc' as const }];
  const page = await incidentStore().list({ ...withKindServed(query), sort });
  const now = Date.now();
  return { ...page, result: page.result.map((r) => toIncident(r, now)) };
}

export async function getIncident(id: number): Promise<IncidentDetail> {
  const row = await incidentStore().get(id);
  if (!row) throw new IncidentNotFoundError(id);
  const events = await incidentStore().events(id);
  return {
    ...toIncident(row),
    timeline: events.sort((a, b) => a.at - b.at || a.id - b.id),
    telegram: row.tg_chat_id && row.tg_message_id ? { chat_id: row.tg_chat_id, message_id: row.tg_message_id } : null,
  };
}

/**
 * Takes the incident's one re-run slot for RERUN_HOLD_MS, within the actor's own budget: a 429 with
 * Retry-After while a re-run is in flight (two presses at once: one wins the conditional write) or
 * past RERUN_LIMIT. Answers the hold's end, which the slot's release expects.
 */
async function holdRerun(row: StoredIncident, actor: Actor, now: number): Promise<number> {
  const busy = (until: number) =>
    new TooManyRequestsError(
      `A re-run of this incident is already running; try again in ${Math.ceil((until - now) / 1000)} s`,
      Math.max(1, Math.ceil((until - now) / 1000)),
    );
  if ((row.rerun_until ?? 0) > now) throw busy(row.rerun_until ?? now);
  const limit = await hitRateLimit(RERUN_LIMIT, `user#${actor.id}`, now);
  if (!limit.allowed)
    throw new TooManyRequestsError(
      `Too many re-runs; try again in ${limit.retryAfterSeconds} s`,
      limit.retryAfterSeconds,
    );
  const until = now + RERUN_HOLD_MS;
  try {
    await incidentStore().update(row.id, { rerun_until: until }, { expect: { rerun_until: row.rerun_until } });
  } catch (error) {
    if (error instanceof ConditionFailedError) throw busy(until);
    throw error;
  }
  return until;
}

/**
 * What a person does to an incident, from the console or a Telegram button (`via`): acknowledge
 * (no more reminders), snooze (Telegram quiet until then), re-run its check as that person, or
 * start a one-hour maintenance window of its site. A resolved incident takes none (409).
 */
export async function actOnIncident(
  id: number,
  body: IncidentActionBody,
  actor: Actor,
  via: 'console' | 'telegram',
  deps: IncidentDeps,
  now = Date.now(),
): Promise<IncidentActionReply> {
  const store = incidentStore();
  const row = await store.get(id);
  if (!row) throw new IncidentNotFoundError(id);
  if (row.status === Resolved) throw new IncidentResolvedError(id);
  let operationId: number | null = null;
  let maintenanceId: number | null = null;
  let updated = row;
  if (body.action === 'acknowledge') {
    updated = await store.update(id, {
      status: Acknowledged,
      acknowledged_by: { id: actor.id, nickname: actor.nickname },
      snoozed_until: null,
    });
    await event(row, IncidentEventKind.values.Acknowledged, { at: now, actor, via });
  } else if (body.action === 'snooze') {
    const until = now + body.minutes * 60_000;
    updated = await store.update(id, { status: Snoozed, snoozed_until: until });
    await event(row, IncidentEventKind.values.Snoozed, { at: now, actor, via, note: String(until) });
  } else if (row.cause) {
    // A parent (issue 45) has no site or account of its own: its other actions are its children's
    // (below); a re-run holds the parent once, within the user's budget.
    if (body.action === 'rerun') await holdRerun(row, actor, now);
  } else if (row.kind === IncidentKind.values.Bank || body.action === 'poll' || body.action === 'disable') {
    // A bank incident's own actions; re-run and maintenance are a check incident's (bankIncidents.ts).
    await actOnBankIncident(row, body, actor, via, deps, now);
  } else if (body.action === 'rerun') {
    // One check of exactly this site, process and mode, as the person who asked: its end joins the incident.
    const hold = await holdRerun(row, actor, now);
    let operation: { id: number };
    try {
      operation = await deps.startCheck({
        // A check incident's (a bank incident took the branch above): its site, process and mode are set.
        siteIds: [row.site_id as number],
        points: [{ point: row.process as ProcessValue, modes: [row.mode as TestModeValue] }],
        name: OperationName.values.SingleSite,
        operatorId: actor.id,
        remark: `Re-run of incident ${id}`,
      });
    } catch (error) {
      // Nothing started: the incident may be re-run at once.
      await store.update(id, { rerun_until: 0 }, { expect: { rerun_until: hold } }).catch(() => undefined);
      throw error;
    }
    await store.update(id, { rerun_operation_id: operation.id });
    operationId = operation.id;
    await event(row, IncidentEventKind.values.Rerun, { at: now, actor, via, operation_id: operation.id });
  } else {
    // The incident's own window runs on if it is still in force; a new one only otherwise (issue 43).
    const window = await extendMaintenanceNow(
      row.maintenance_id,
      { site_id: row.site_id as number, minutes: 60, mode: 'pause' },
      actor,
      now,
    );
    if (window.id !== row.maintenance_id) await store.update(id, { maintenance_id: window.id });
    maintenanceId = window.id;
    await event(row, IncidentEventKind.values.Maintenance, { at: now, actor, via, note: window.name });
  }
  if (row.cause) {
    operationId = await actOnChildren(row, body, actor.id, {
      act: (childId, childBody) => actOnIncident(childId, childBody, actor, via, deps, now),
      startCheck: deps.startCheck,
    });
    // Acknowledge and snooze are the parent's own entries (above); the rest are its children's, noted here.
    if (body.action === 'rerun' || body.action === 'maintenance')
      await event(row, IncidentEventKind.values[body.action === 'rerun' ? 'Rerun' : 'Maintenance'], {
        at: now,
        actor,
        via,
        note: body.action === 'rerun' ? '' : `Every child's site`,
        operation_id: operationId,
      });
  }
  await enqueueIncidentSync(id);
  return { incident: toIncident(updated, now), operation_id: operationId, maintenance_id: maintenanceId };
}
