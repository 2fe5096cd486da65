import { describe, expect, it } from 'vitest';
import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import { claimSubtask } from '../../functions/checks/engine.js';
import { checkStore } from '../../functions/checks/store.js';
import { newCheck, setupQueues } from './checkRig.js';
import { setupDynamo } from './engine.js';

// The checker's claim on the engine under test. Its message carries the subtask's fields that
// never change (shared/schemas/checkMessage.ts), so it claims without reading the subtask first; a
// message of an older version carries none, and the claim reads them. Both claim the same way.

setupDynamo();
setupQueues();

const { AgentSetting, PlaceBets } = Process.values;

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
    expect(after).toMatchObject({ status: TaskStatus.values.Running, task_running: 2 });
    const starts = (await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } }))
      .filter((e) => e.action === 'subtask_start')
      .map((e) => e.message)
      .sort();
    expect(starts).toEqual(
      [`Subtask ${fromMessage.id} Agent Setting (D4) started`, `Subtask ${fromRead.id} Place Bets (D4) started`].sort(),
    );
  });
});
