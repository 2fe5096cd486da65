import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import type { FollowUp } from '../lib/db/entity.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp, together } from '../lib/db/outbox.js';
import { recordIncident } from '../incidents/service.js';
import { recordMetric } from '../lib/metrics.js';
import { siteRefs } from '../sites/service.js';
import { newNotificationId, writeNotification } from '../notifications/service.js';
import { type RollupSubtask, recordSubtaskRollup } from './checkRollup.js';
import { cause, countOnOperation, countOnTask } from './counts.js';
import { siteName, subtaskLabel, subtaskNotification } from './endNotifications.js';
import { writeEvent } from './events.js';
import { enqueueSubtasks } from './queue.js';
import { type StoredSubtask, checkStore } from './store.js';
import { checkTaskEnd } from './taskEnd.js';

// The state machine of a check (docs/check-engine.md). Every transition is a single-item
// conditional write, so two deliveries of one message, or a checker and the reaper, can race
// and exactly one wins. What a transition sets in motion (the task's counters, its end, the
// records and notifications) is written with it as follow-ups (lib/db/outbox.ts) and applied
// once in effect, so a process killed between two writes leaves nothing undone.

const { Pending, Running, Pause, Failed, Done } = RunStatus.values;

/** A claimed subtask, and what its claim set in motion (the task's count and start, the event) being applied. */
export interface Claim {
  sub: StoredSubtask;
  /** Settles once the claim's kept counts and follow-ups are applied; await it before the subtask ends. */
  followUps: Promise<void>;
  /**
   * With `keepForEnd`, once `followUps` settled: the claim's applied entry, for the end's write to
   * remove (finishSubtask `clears`); undefined when a step failed (the sweeper's, as always).
   */
  applied(): string | undefined;
}

/**
 * Pending -> Running for one delivery; null when another delivery or a pause got there first. It
 * answers once the claim is written: the checker opens its browser while the claim's follow-ups are
 * applied beside it (they are the outbox's either way, so a crash leaves them to the sweeper).
 */
export function claimBeside(
  id: number,
  runId: string,
  known?: ClaimBasis,
  options: {
    /** The task has started (its login's success sent this subtask): the claim does not ask whether it starts it. */
    taskStarted?: boolean;
    /**
     * The caller ends the subtask itself soon (the checker): the claim's entry stays on the row once
     * applied, and the end's write removes it (Claim.applied), instead of a clear of its own.
     */
    keepForEnd?: boolean;
  } = {},
): Promise<Claim | null> {
  return writeSequence('subtask_claim', async () => {
    const { subtasks, engineEvents } = checkStore();
    // The claim's follow-ups name the task and the operation (they never change): from the message
    // when it carries them, so the claim is one write; else read first.
    let sub = known;
    if (!sub) {
      const row = await subtasks.get(id);
      if (row?.status !== Pending) return null;
      sub = row;
    }
    const eventId = await engineEvents.newId();
    const at = Date.now();
    let followUps: Promise<void> = Promise.resolve();
    let applied: string | undefined;
    // The start's record is the end's to write (subtaskEndFollowUps), under the id stamped here: the
    // claim writes no row of its own, and its record and the end's share their counts' writes.
    const claimed = await subtasks.transition(
      id,
      { status: Running, run_id: runId, start_at: at, start_event_id: eventId },
      { status: Pending },
      // The task's running count is derived when read (read.ts), not added to: a claim's only
      // follow-up is the task's start, and a claim of a started task (the rest after its login) has none.
      options.taskStarted ? [] : [startTask({ task_id: sub.task_id })],
      {
        beside: (rest) => {
          followUps = rest;
        },
        ...(options.keepForEnd
          ? {
              keepApplied: (entry: string) => {
                applied = entry;
              },
            }
          : {}),
      },
    );
    return claimed && { sub: claimed, followUps, applied: () => applied };
  });
}

/** The fields of a subtask its claim's follow-ups name; they never change once it is written. */
export type ClaimBasis = Pick<StoredSubtask, 'task_id' | 'operation_id' | 'process' | 'mode'>;

/** Pending -> Running, answering once the claim's follow-ups are applied too (claimBeside). */
export async function claimSubtask(id: number, runId: string, known?: ClaimBasis): Promise<StoredSubtask | null> {
  const claim = await claimBeside(id, runId, known);
  if (!claim) return null;
  await claim.followUps;
  return claim.sub;
}

/** Follow-up of a claim: the task starts with its first claimed subtask (Pending -> Running), once. */
const startTask = defineFollowUp('check.task_start', async ({ task_id }: { task_id: number }) => {
  const { tasks, engineEvents } = checkStore();
  const task = await tasks.get(task_id);
  if (task?.status !== TaskStatus.values.Pending) return;
  const eventId = await engineEvents.newId();
  const at = Date.now();
  await tasks.transition(task.id, { status: TaskStatus.values.Running, start_at: at }, { status: task.status }, [
    countOnOperation({ operation_id: task.operation_id, cause: cause.taskStart(task.id), deltas: { task_running: 1 } }),
    writeEvent({
      id: eventId,
      action: 'task_start',
      operation_id: task.operation_id,
      message: `Task ${task.id} started`,
      task_id: task.id,
      at,
    }),
  ]);
});

export interface SubtaskOutcome {
  success: boolean;
  msg: string;
  /** What the checker's attempts came to (runSubtask.ts); absent when it never ran one (reaper, missing site). */
  attempts?: number;
  flaky?: boolean;
  degraded?: boolean;
  duration_ms?: number;
}

/** A finished subtask and what its end was given beforehand: the ids its records are written under. */
export interface SubtaskEnd {
  sub: StoredSubtask;
  /** The site's name, for the notification. */
  site: string;
  eventId: number;
  notificationId: number;
}

/**
 * What a subtask's end sets in motion, in stages: each entry gives a step (a declared follow-up
 * kind) or nothing; the steps of a stage are applied at once (outbox `together`), the stages in
 * order. They are written with the end in one conditional write and each is applied exactly once
 * in effect (lib/db/outbox.ts), so a new reaction to a subtask's end (a rollup, an incident) is one
 * more entry here, idempotent for the subtask's id, in the first stage unless it reads what another
 * step writes.
 */
export const subtaskEndFollowUps: ((end: SubtaskEnd) => FollowUp | undefined)[][] = [
  // Together: none of these reads what another writes. The task's counters are read by the stages
  // after (its end, the rest failed); the login's success sends the rest beside the records, waiting
  // on none of them.
  [
    ({ sub }) =>
      countOnTask({
        task_id: sub.task_id,
        cause: cause.subtaskEnd(sub.id),
        deltas: sub.status === Done ? { task_done: 1 } : { task_failed: 1 },
      }),
    ({ sub }) =>
      sub.process === Process.values.Login && sub.status === Done ? enqueueRest({ task_id: sub.task_id }) : undefined,
    // The start's record, dated at the claim, under the id the claim stamped (a row claimed before
    // 2026-12-07 has none: its claim wrote it).
    ({ sub }) =>
      sub.start_event_id !== undefined && sub.start_at !== null
        ? writeEvent({
            id: sub.start_event_id,
            action: 'subtask_start',
            operation_id: sub.operation_id,
            message: `Subtask ${sub.id} ${subtaskLabel(sub)} started`,
            task_id: sub.task_id,
            subtask_id: sub.id,
            at: sub.start_at,
          })
        : undefined,
    ({ sub, eventId }) =>
      writeEvent({
        id: eventId,
        action: 'subtask_end',
        operation_id: sub.operation_id,
        message: `Subtask ${sub.id} ${subtaskLabel(sub)} ${sub.status === Done ? 'done' : 'failed'}: ${sub.msg}`,
        task_id: sub.task_id,
        subtask_id: sub.id,
        at: sub.end_at ?? Date.now(),
      }),
    // A flaky pass is told by its badge and the dashboard's flake rate, not by a message: it passed,
    // and a message per passing retry would teach operators to ignore them.
    ({ sub, site, notificationId }) =>
      sub.flaky ? undefined : writeNotification({ id: notificationId, ...subtaskNotification(sub, site) }),
    // The dashboard's rollups (checkRollup.ts).
    ({ sub }) => addToRollups(rollupFields(sub)),
    // The (site, process, mode)'s incident: opened, joined or resolved, once for this subtask. Before a
    // failed login fails the rest (next stage): the operation may end with them, and its summary asks
    // whether an incident told of it (operationEnd.ts).
    ({ sub }) =>
      recordIncident({
        id: sub.id,
        operation_id: sub.operation_id,
        site_id: sub.site_id,
        process: sub.process,
        mode: sub.mode,
        status: sub.status,
        msg: sub.msg,
        end_at: sub.end_at ?? null,
      }),
  ],
  [
    ({ sub }) =>
      sub.process === Process.values.Login && sub.status === Failed
        ? failPending({ task_id: sub.task_id, msg: `Login failed: ${sub.msg}` })
        : undefined,
  ],
  // Last: the task ends if this was its last subtask (and the operation if that was its last task).
  [({ sub }) => checkTaskEnd({ task_id: sub.task_id })],
];

/**
 * Running -> Done/Failed for the delivery that claimed it; its follow-ups roll the result up into
 * the task and the operation and write the records and notifications once each.
 */
export function finishSubtask(
  sub: StoredSubtask,
  runId: string,
  outcome: SubtaskOutcome,
  options: {
    /** The site's name when the caller has read it already (the checker has): one read fewer. */
    siteName?: string;
    /**
     * The follow-ups go to their own consumer (TransitionOptions.handOff) and this answers once the end
     * is written: the checker's, whose slot holds a Chromium the next subtask can use meanwhile.
     */
    handOff?: boolean;
    /** The claim's applied entry (Claim.applied), removed by the end's write. */
    clears?: readonly string[];
  } = {},
): Promise<boolean> {
  return writeSequence('subtask_end', async () => {
    const status = outcome.success ? Done : Failed;
    const { success: _s, ...fields } = outcome;
    const [site, eventId, notificationId] = await Promise.all([
      options.siteName ?? siteName(sub.site_id),
      checkStore().engineEvents.newId(),
      newNotificationId(),
    ]);
    const end_at = Date.now();
    const finished: StoredSubtask = { ...sub, status, ...fields, end_at };
    const end = { sub: finished, site, eventId, notificationId };
    const steps = subtaskEndFollowUps
      .map((stage) => together(stage.map((step) => step(end))))
      .filter((s) => s !== undefined);
    const done = await checkStore().subtasks.transition(
      sub.id,
      { status, ...fields, end_at },
      { status: Running, run_id: runId },
      steps,
      { handOff: options.handOff, clearsApplied: options.clears },
    );
    if (done && !outcome.success) recordMetric('SubtasksFailed');
    return done !== null;
  });
}

/**
 * Follow-up of every end: the subtask counts once in the dashboard's rollups: one ADD to its day item,
 * guarded by the subtask's id in that item's own set (checkRollup.ts recordSubtaskRollup), so the
 * step applied again after a crash adds nothing, whichever write the crash cut. It carries the
 * fields it adds (no read); an entry written before it did (`subtask_id` alone) reads the row.
 */
const addToRollups = defineFollowUp('check.rollup', (fields: { subtask_id: number } & Partial<RollupSubtask>) =>
  writeSequence('subtask_rollup', async () => {
    const sub =
      fields.site_id === undefined
        ? await checkStore().subtasks.get(fields.subtask_id)
        : { ...fields, id: fields.subtask_id };
    if (sub) await recordSubtaskRollup(sub as RollupSubtask);
  }),
);

/** What the rollup follow-up carries of an ended subtask. */
const rollupFields = (sub: StoredSubtask) => ({
  subtask_id: sub.id,
  site_id: sub.site_id,
  process: sub.process,
  mode: sub.mode,
  status: sub.status,
  start_at: sub.start_at,
  end_at: sub.end_at,
  flaky: sub.flaky,
  degraded: sub.degraded,
  duration_ms: sub.duration_ms,
});

/** Follow-up of a login's success: the task's other pending subtasks are sent, in parallel (duplicates are dropped by the claim). */
const enqueueRest = defineFollowUp('check.enqueue_rest', async ({ task_id }: { task_id: number }) => {
  const { subtasks, tasks } = checkStore();
  const [all, task] = await Promise.all([subtasks.all({ scope: { task_id } }), tasks.get(task_id)]);
  const pending = all.filter((s) => s.status === Pending);
  // The login stored its session on the task before it ended: the rest carry it, and the site it
  // signed in to (one read for the task, where each check read it), and read them no more.
  const site = task && pending.length ? (await siteRefs([task.site_id])).get(task.site_id) : undefined;
  await enqueueSubtasks(
    pending,
    task && {
      account_id: task.account_id,
      session_id: task.session_id,
      ...(site && { site: { name: site.name, url: site.url } }),
    },
  );
});

/**
 * Follow-up of a login's failure: every still-pending subtask of the task fails with the login's
 * reason. Each is its own transition with its own follow-ups (its count on the task, the task's
 * end), so a crash half-way leaves nothing uncounted; applied again, it finds them failed.
 */
const failPending = defineFollowUp('check.fail_pending', async ({ task_id, msg }: { task_id: number; msg: string }) => {
  const { subtasks } = checkStore();
  for (const s of await subtasks.all({ scope: { task_id } })) {
    if (s.status !== Pending && s.status !== Pause) continue;
    await subtasks.transition(s.id, { status: Failed, msg, end_at: Date.now() }, { status: s.status }, [
      countOnTask({ task_id, cause: cause.subtaskEnd(s.id), deltas: { task_failed: 1 } }),
      checkTaskEnd({ task_id }),
    ]);
  }
});
