import { describe, expect, it } from 'vitest';
import { finishSubtask } from '../../functions/checks/engine.js';
import { checkStore } from '../../functions/checks/store.js';
import { notificationStore } from '../../functions/notifications/store.js';
import { Process } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { claim, newCheck, setupQueues } from './checkRig.js';
import { callsDuring, setupDynamo } from './engine.js';

// A subtask's end writes its engine event and its notification (engine.ts subtaskEndFollowUps).
// Both types are in one counter group (lib/db/counterGroups.ts TRANSITION_RECORD_COUNTS) and the
// steps of the end's entry share one batch of counts (outbox.ts applyEntry): the day's counts of the
// two rows move in one ADD, and both lists still count their own rows.

setupDynamo();
setupQueues();

const { AgentSetting, PlaceBets } = Process.values;

describe("a subtask's end records", () => {
  it("move the day's counts of its event and its notification in one ADD, and each list counts its own rows", async () => {
    const check = await newCheck([[AgentSetting, PlaceBets]]);
    const [first, second] = check.tasks[0].subs;
    const running = [await claim(first), await claim(second)];
    const eventsBefore = (await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } })).length;
    const notificationsBefore = (await notificationStore().list(emptyListQuery({ page_size: 50 }))).result.length;

    const { calls } = await callsDuring(async () => {
      for (const sub of running) {
        if (!sub) throw new Error('not claimed');
        await finishSubtask(sub, sub.run_id as string, { success: false, msg: 'broken' });
      }
    });
    const counterWrites = calls
      .filter((c) => c.command === 'UpdateItemCommand' && String(c.pk).startsWith('count#'))
      .map((c) => String(c.pk));
    // The two ends, then the task's and the operation's (the last subtask ended them): four
    // transitions, each writing an event and a notification (a subtask's end its start's event too),
    // each moving the day's item once.
    const events = await checkStore().engineEvents.all({ scope: { operation_id: check.op.id } });
    const written = 4;
    expect(events.length - eventsBefore).toBe(written + 2);
    expect(counterWrites.filter((pk) => pk === 'count#@records')).toHaveLength(written);
    expect(counterWrites.filter((pk) => pk === `count#@records:operation_id=${check.op.id}`)).toHaveLength(written);
    expect(
      counterWrites.filter((pk) => pk.startsWith('count#engine_event') || pk.startsWith('count#notification')),
    ).toEqual([]);
    expect(
      (await checkStore().engineEvents.list(emptyListQuery({ page_size: 5 }), { scope: { operation_id: check.op.id } }))
        .total_count,
    ).toBe(events.length);
    expect((await checkStore().engineEvents.list(emptyListQuery({ page_size: 5 }))).total_count).toBe(events.length);
    const notifications = await notificationStore().list(emptyListQuery({ page_size: 50 }));
    expect(notifications.result.length).toBe(notificationsBefore + written);
    expect(notifications.total_count).toBe(notifications.result.length);
  });
});
