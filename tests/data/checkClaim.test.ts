import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import { claimBeside, claimSubtask, finishSubtask } from '../../functions/checks/engine.js';
import { getTask } from '../../functions/checks/read.js';
import { readRunInputs } from '../../functions/checks/runSubtask.js';
import { checkStore, type StoredSubtask } from '../../functions/checks/store.js';
import { siteStore } from '../../functions/sites/store.js';
import { CheckMessage } from '../../shared/schemas/checkMessage.js';
import { newCheck, run, sent, setupQueues } from './checkRig.js';
import { callsDuring, setupDynamo } from './engine.js';

// The checker's claim on the engine under test. Its message carries the subtask's fields that
// never change (shared/schemas/checkMessage.ts), so it claims without reading the subtask first; a
// message of an older version carries none, and the claim reads them. Both claim the same way. The
// messages a login's success sends also carry the task's account and stored session, so those
// checks read no task row at all.

setupDynamo();
setupQueues();

/** A task's running subtasks as the API shows them: derived when read (read.ts), not kept on the row. */
const runningOf = async (taskId: number) => (await getTask(taskId)).task_running;

const { Login, AgentSetting, PlaceBets } = Process.values;

describe("a checker's claim", () => {
  it("from the message's fields claims as one that reads the subtask first, and a second delivery gets nothing either way", async () => {
    const check = await newCheck([[AgentSetting, PlaceBets]]);
    const { task, subs } = check.tasks[0];
    const [fromMessage, fromRead] = subs;

    const claimed = await Promise.all([
      claimSubtask(fromMessage.id, 'delivery-a', fromMessage),
      claimSubtask(fromRead.id, 'delivery-b'),
    ]);
    expect(claimed.map((s) => [s?.id, s?.status, s?.run_id, s?.task_id, typeof s?.start_at])).toEqual([
      [fromMessage.id, RunStatus.values.Running, 'delivery-a', task.id, 'number'],
      [fromRead.id, RunStatus.values.Running, 'delivery-b', task.id, 'number'],
    ]);

    expect(await claimSubtask(fromMessage.id, 'delivery-a2', fromMessage)).toBeNull();
    expect(await claimSubtask(fromRead.id, 'delivery-b2')).toBeNull();

    const after = await checkStore().tasks.get(task.id);
    expect(after).toMatchObject({ status: TaskStatus.values.Running });
    expect(await runningOf(task.id)).toBe(2);
    // Each start's record is written by its end (issue 44: the claim is one write), under the id the claim stamped.
    for (const s of claimed) await finishSubtask(s as StoredSubtask, s?.run_id as string, { success: true, msg: 'ok' });
    const starts = (await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } }))
      .filter((e) => e.action === 'subtask_start')
      .map((e) => e.message)
      .sort();
    expect(starts).toEqual(
      [`Subtask ${fromMessage.id} Agent Setting (D4) started`, `Subtask ${fromRead.id} Place Bets (D4) started`].sort(),
    );
  });

  it("of a subtask a login's success sent: its message carries the task's account and session, and the claim reads no task row", async () => {
    const check = await newCheck([[Login, AgentSetting, PlaceBets]]);
    const { task, subs } = check.tasks[0];
    const [login, ...rest] = subs;
    // As the checker leaves the task once its login has passed: the account it signed in with, the session it stored.
    await checkStore().tasks.update(task.id, { account_id: 7, session_id: 9 });
    await run(login);

    const messages = (await sent('check')).filter((m) => rest.some((s) => s.id === m.subtask_id));
    expect(messages.map((m) => [m.subtask_id, (m as unknown as { task?: unknown }).task])).toEqual(
      rest.map((s) => [s.id, { account_id: 7, session_id: 9 }]),
    );

    const { result: claimed, calls } = await callsDuring(async () => {
      const claim = await claimBeside(rest[0].id, 'delivery-rest', rest[0], { taskStarted: true });
      await claim?.followUps;
      return claim;
    });
    expect(claimed?.sub).toMatchObject({ status: RunStatus.values.Running, run_id: 'delivery-rest' });
    expect(calls.filter((call) => call.command === 'GetItemCommand' && call.pk === `task#${task.id}`)).toEqual([]);
    // The task started with its login, once; this claim counts it running again.
    expect(await checkStore().tasks.get(task.id)).toMatchObject({ status: TaskStatus.values.Running });
    expect(await runningOf(task.id)).toBe(1);
    const events = await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } });
    expect(events.filter((e) => e.action === 'task_start')).toHaveLength(1);
    // Its start's record comes with its end.
    expect(events.filter((e) => e.action === 'subtask_start' && e.subtask_id === rest[0].id)).toHaveLength(0);
    await finishSubtask(claimed?.sub as StoredSubtask, 'delivery-rest', { success: true, msg: 'ok' });
    const ended = await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } });
    expect(ended.filter((e) => e.action === 'subtask_start' && e.subtask_id === rest[0].id)).toMatchObject([
      { created_at: claimed?.sub.start_at },
    ]);
  });

  it('of the rest of a task: its message carries the site its login signed in to, and the run reads no site', async () => {
    const check = await newCheck([[Login, AgentSetting]]);
    const { task, subs } = check.tasks[0];
    const [login, next] = subs;
    const { site } = await siteStore().createSite(
      {
        name: `Rest of task ${task.id}`,
        url: 'https://rest-of-task.example.test',
        enable: true,
        available_account_cnt: 0,
        control: false,
      },
      [],
    );
    await checkStore().tasks.update(task.id, { site_id: site.id, account_id: 7, session_id: 9 });
    await run(login);

    const message = CheckMessage.parse((await sent('check')).find((m) => m.subtask_id === next.id));
    expect(message.task).toEqual({ account_id: 7, session_id: 9, site: { name: site.name, url: site.url } });
    const { result, calls } = await callsDuring(() => readRunInputs({ ...next, site_id: site.id }, message.task));
    expect(result.site).toEqual({ id: site.id, name: site.name, url: site.url });
    expect(calls.map((c) => c.command)).not.toContain('BatchGetItemCommand');
    expect(calls.filter((c) => c.pk === `site#${site.id}` || c.pk === `task#${task.id}`)).toEqual([]);
  });

  it("kept for its end: the end's write removes the claim's applied entry, so the claim writes its row once", async () => {
    const check = await newCheck([[AgentSetting, PlaceBets]]);
    const { task, subs } = check.tasks[0];
    const [kept, swept] = subs;
    const pending = async (id: number) => {
      const out = await dynamoClient().send(
        new GetCommand({
          TableName: process.env.TABLE_NAME,
          Key: { pk: `subtask#${id}`, sk: 'item' },
          ConsistentRead: true,
        }),
      );
      return Object.keys(out.Item ?? {})
        .filter((a) => a.startsWith('_ob_e_') || a === '_ob_pk')
        .sort();
    };

    const { result: claim, calls } = await callsDuring(async () => {
      const c = await claimBeside(kept.id, 'delivery-kept', kept, { keepForEnd: true });
      await c?.followUps;
      return c;
    });
    if (!claim) throw new Error('not claimed');
    expect(calls.filter((c) => c.command === 'UpdateItemCommand' && c.pk === `subtask#${kept.id}`)).toHaveLength(1);
    const entry = claim.applied() as string;
    expect(await pending(kept.id)).toEqual([entry, '_ob_pk'].sort());
    expect(await runningOf(task.id)).toBe(1);

    await finishSubtask(claim.sub, 'delivery-kept', { success: true, msg: 'ok' }, { clears: [entry] });
    expect(await pending(kept.id)).toEqual([]);
    expect(await checkStore().tasks.get(task.id)).toMatchObject({ task_done: 1 });
    expect(await runningOf(task.id)).toBe(0);

    // A kept entry the sweeper meets first (a check longer than its few seconds) is applied again
    // without counting twice, and the end's removal of it then finds it gone.
    const other = await claimBeside(swept.id, 'delivery-swept', swept, { keepForEnd: true });
    await other?.followUps;
    await sweepFollowUps({ before: Date.now() + 1 });
    expect(await pending(swept.id)).toEqual([]);
    expect(await checkStore().tasks.get(task.id)).toMatchObject({ task_done: 1 });
    expect(await runningOf(task.id)).toBe(1);
    await finishSubtask(
      other?.sub as StoredSubtask,
      'delivery-swept',
      { success: true, msg: 'ok' },
      {
        clears: [other?.applied() as string],
      },
    );
    expect(await pending(swept.id)).toEqual([]);
    expect(await checkStore().tasks.get(task.id)).toMatchObject({ task_done: 2, status: TaskStatus.values.Done });
    expect(await runningOf(task.id)).toBe(0);
    const starts = (await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } })).filter(
      (e) => e.action === 'subtask_start',
    );
    expect(starts).toHaveLength(2);
  });
});
