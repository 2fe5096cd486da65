import { describe, expect, it } from 'vitest';
import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import { runToCrash } from '../../functions/lib/db/faults.js';
import { finishSubtask } from '../../functions/checks/engine.js';
import { pauseOperation, resumeOperation } from '../../functions/checks/pauseResume.js';
import { reapOperation } from '../../functions/checks/reapStuck.js';
import { PENDING_LIMIT_MS, RUNNING_LIMIT_MS } from '../../functions/checks/reaper.js';
import { CREATE_GRACE_MS, QUIET_MS } from '../../functions/checks/repairCounts.js';
import { checkStore } from '../../functions/checks/store.js';
import { readCheckTimings } from '../../functions/checks/checkRollup.js';
import {
  type Check,
  claim,
  expectSettled,
  newCheck,
  recover,
  run,
  runToEnd,
  sent,
  setupQueues,
  withoutIncidentGrouping,
} from './checkRig.js';
import { setupDynamo } from './engine.js';

// Crash points of the check engine (issue 25): for every multi-write sequence and every N, the
// process dies right after its N-th write (lib/db/faults.ts), the product recovers as it would
// (the follow-up sweeper, then the reaper), the rest of the check runs, and the check must end as
// if nothing had happened: counters equal to the children, every record and notification once,
// nothing left open or pending. The reaper must never have had to repair a counter: the follow-ups
// alone complete what a crash leaves.

setupDynamo();
setupQueues();
withoutIncidentGrouping();

const { Login, PlaceBets, DeleteBets, AgentSetting } = Process.values;

interface Scenario {
  /** The state the sequence starts from. */
  prepare(): Promise<Check>;
  /** The sequence, crashed at some write. */
  act(check: Check): Promise<unknown>;
  /** What must hold right after recovery, before the rest of the check runs. */
  afterRecovery?(check: Check): Promise<void>;
}

/**
 * Crash points run side by side, each on its own operation: the engine waits on I/O. In phases,
 * so that no recovery (whose sweep applies every row's follow-ups) runs while another point's
 * sequence is being crashed or another point's reaper looks.
 */
const AT_ONCE = 6;

/**
 * Runs the scenario once per crash point, from the first write on, until the sequence completes
 * without reaching the crash; answers how many writes the sequence made.
 */
async function everyCrashPoint(sequence: string, scenario: Scenario): Promise<number> {
  for (let first = 1; first < 200; first += AT_ONCE) {
    const since = Date.now();
    const points = await Promise.all(
      Array.from({ length: AT_ONCE }, async (_, i) => ({ n: first + i, check: await scenario.prepare() })),
    );
    const runs = await Promise.all(
      points.map(async ({ n, check }) => {
        const { crashed, lastWrite } = await runToCrash({ sequence, afterWrites: n }, () => scenario.act(check));
        return {
          n,
          check,
          crashed,
          context: `${sequence}, crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`,
        };
      }),
    );
    for (const { check, context } of runs) {
      expect(await recover(check.op.id), `${context}: counters the reaper had to repair`).toBe(0);
      await scenario.afterRecovery?.(check);
    }
    await Promise.all(
      runs.map(async ({ check, context, crashed }) => {
        await runToEnd(check.op.id);
        await expectSettled(check.op.id, since, context, crashed);
      }),
    );
    const spared = runs.find((r) => !r.crashed);
    if (spared) return spared.n - 1;
  }
  throw new Error(`${sequence} did not complete within 200 writes`);
}

describe('a crash at any write of the check engine leaves nothing the product does not complete', () => {
  it('claim: the subtask, the task counters and its start', async () => {
    const writes = await everyCrashPoint('subtask_claim', {
      prepare: () => newCheck([[AgentSetting]]),
      act: ({ tasks }) => claim(tasks[0].subs[0]),
    });
    expect(writes).toBeGreaterThanOrEqual(5);
  });

  it('end of a login that passed: counters, the rest of the task sent, the records', async () => {
    const writes = await everyCrashPoint('subtask_end', {
      async prepare() {
        const check = await newCheck([[Login, PlaceBets]]);
        check.tasks[0].subs[0] = (await claim(check.tasks[0].subs[0]))!;
        return check;
      },
      act: ({ tasks }) => finishSubtask(tasks[0].subs[0], tasks[0].subs[0].run_id!, { success: true, msg: 'ok' }),
      async afterRecovery({ op, tasks }) {
        // Once the login is Done, whatever the crash cut, the rest of its task was sent to the checkers.
        // (A crash before its end was written leaves it Running: the reaper fails it, and the rest with it.)
        const sentIds = new Set((await sent('check')).map((m) => m.subtask_id));
        const subs = await checkStore().subtasks.all({ scope: { operation_id: op.id } });
        if (subs.find((s) => s.id === tasks[0].subs[0].id)?.status !== RunStatus.values.Done) return;
        const unsent = subs.filter((s) => s.process !== Login && !sentIds.has(s.id));
        expect(unsent.map((s) => s.id)).toEqual([]);
      },
    });
    expect(writes).toBeGreaterThanOrEqual(8);
  });

  it('end of a login that failed: the rest failed with its reason, the task and the operation ended', async () => {
    const writes = await everyCrashPoint('subtask_end', {
      async prepare() {
        const check = await newCheck([[Login, PlaceBets, DeleteBets]]);
        check.tasks[0].subs[0] = (await claim(check.tasks[0].subs[0]))!;
        return check;
      },
      act: ({ tasks }) => finishSubtask(tasks[0].subs[0], tasks[0].subs[0].run_id!, { success: false, msg: 'locked' }),
    });
    expect(writes).toBeGreaterThanOrEqual(20);
  });

  it("end of an operation's last subtask: the task's end, the operation's counters, its end and summary", async () => {
    const writes = await everyCrashPoint('subtask_end', {
      async prepare() {
        const check = await newCheck([[AgentSetting], [AgentSetting]]);
        await run(check.tasks[0].subs[0], true);
        check.tasks[1].subs[0] = (await claim(check.tasks[1].subs[0]))!;
        return check;
      },
      act: ({ tasks }) => finishSubtask(tasks[1].subs[0], tasks[1].subs[0].run_id!, { success: false, msg: 'broken' }),
    });
    expect(writes).toBeGreaterThanOrEqual(25);
  });

  // Regression of issue 44: the rollup follow-up marked the subtask (`rolled_up_at`) and then made its
  // ADDs; a crash between the two left the subtask out of the dashboard's day rollup, and the
  // sweeper's second application found the mark and added nothing. Now it is one ADD guarded by the
  // subtask's id in the day item's own set.
  it('rollup of an end: the subtask counted once in its day rollup, whatever write a crash cut', async () => {
    await everyCrashPoint('subtask_rollup', {
      async prepare() {
        const check = await newCheck([[AgentSetting]]);
        check.tasks[0].subs[0] = (await claim(check.tasks[0].subs[0]))!;
        return check;
      },
      act: ({ tasks }) => finishSubtask(tasks[0].subs[0], tasks[0].subs[0].run_id!, { success: true, msg: 'ok' }),
      async afterRecovery({ tasks }) {
        const { points } = await readCheckTimings(tasks[0].task.site_id, 2);
        expect(points.reduce((n, p) => n + p.runs, 0)).toBe(1);
      },
    });
  });

  it('pause: the operation, its pending tasks and their subtasks, all of them', async () => {
    await everyCrashPoint('pause', {
      prepare: () => newCheck([[Login, AgentSetting], [AgentSetting]]),
      act: ({ op }) => pauseOperation(op),
      async afterRecovery({ op }) {
        const { operations, tasks, subtasks } = checkStore();
        const now = (await operations.get(op.id))!;
        const statuses = [
          ...(await tasks.all({ scope: { operation_id: op.id } })).map((t) => t.status),
          ...(await subtasks.all({ scope: { operation_id: op.id } })).map((s) => s.status),
        ];
        // The operation's own transition is the sequence's first write: paused through and through,
        // never a paused operation with work still pending under it. Then the operator resumes it.
        expect(now.status).toBe(RunStatus.values.Pause);
        expect(new Set(statuses)).toEqual(new Set([TaskStatus.values.Pause]));
        await resumeOperation(now);
      },
    });
  });

  it('resume: the operation, its paused tasks and their subtasks, and the work sent again', async () => {
    await everyCrashPoint('resume', {
      async prepare() {
        const check = await newCheck([[Login, AgentSetting], [AgentSetting]]);
        await pauseOperation(check.op);
        return { ...check, op: (await checkStore().operations.get(check.op.id))! };
      },
      act: ({ op }) => resumeOperation(op),
      async afterRecovery({ op }) {
        // The operation's own transition is the sequence's first write: it is Running again, and so is the rest.
        expect((await checkStore().operations.get(op.id))?.status).toBe(RunStatus.values.Running);
        const subs = await checkStore().subtasks.all({ scope: { operation_id: op.id } });
        expect(subs.filter((s) => s.status === RunStatus.values.Pause)).toEqual([]);
        // The work is on its way to the checkers: a task's login first, a task without one all of it.
        const sentIds = new Set((await sent('check')).map((m) => m.subtask_id));
        const first = subs.filter(
          (s) => s.process === Login || !subs.some((l) => l.task_id === s.task_id && l.process === Login),
        );
        expect(first.filter((s) => !sentIds.has(s.id)).map((s) => s.id)).toEqual([]);
      },
    });
  });
});

describe('the reaper', () => {
  /** The issue's state (before follow-ups): subtasks saved Done, the task's counters never moved, its end never written. */
  async function countersLeftBehind() {
    const check = await newCheck([[AgentSetting, PlaceBets]]);
    const { operations, tasks, subtasks } = checkStore();
    const { task, subs } = check.tasks[0];
    for (const s of subs)
      await subtasks.update(s.id, {
        status: RunStatus.values.Done,
        run_id: `old-${s.id}`,
        start_at: Date.now(),
        end_at: Date.now(),
        msg: 'ok',
      });
    await tasks.update(task.id, { status: TaskStatus.values.Running, start_at: Date.now(), task_running: 2 });
    await operations.update(check.op.id, { task_running: 1 });
    return check;
  }

  it('repairs a task whose counters disagree with its subtasks, then ends it and its operation', async () => {
    const { op, tasks } = await countersLeftBehind();
    const reaped = await reapOperation(op.id, {
      runningLimitMs: RUNNING_LIMIT_MS,
      pendingLimitMs: PENDING_LIMIT_MS,
      now: Date.now() + CREATE_GRACE_MS + QUIET_MS,
    });
    expect(reaped.repaired).toBe(1);
    // (A task's running count is derived when read, never kept: the stored one is left as it was.)
    expect(await checkStore().tasks.get(tasks[0].task.id)).toMatchObject({
      status: TaskStatus.values.Done,
      task_total: 2,
      task_done: 2,
      task_failed: 0,
    });
    expect(await checkStore().operations.get(op.id)).toMatchObject({
      status: RunStatus.values.Done,
      task_done: 1,
      task_running: 0,
    });
    expect((await checkStore().operations.get(op.id))?.open).toBeUndefined();
    const events = await checkStore().engineEvents.all({ scope: { operation_id: op.id } });
    expect(events.map((e) => e.action).sort()).toEqual(['operation_end', 'task_end']);
  });

  it('leaves a disagreement alone while the rows are young: a start still writing, or follow-ups in flight', async () => {
    const { op, tasks } = await countersLeftBehind();
    const reaped = await reapOperation(op.id, {
      runningLimitMs: RUNNING_LIMIT_MS,
      pendingLimitMs: PENDING_LIMIT_MS,
      now: Date.now(),
    });
    expect(reaped.repaired).toBe(0);
    expect(await checkStore().tasks.get(tasks[0].task.id)).toMatchObject({
      status: TaskStatus.values.Running,
      task_done: 0,
    });
  });
});
