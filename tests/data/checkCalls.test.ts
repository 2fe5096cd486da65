import { describe, expect, it } from 'vitest';
import { Process } from '../../shared/enums.js';
import { claimBeside, finishSubtask } from '../../functions/checks/engine.js';
import { type Check, newCheck, setupQueues } from './checkRig.js';
import { callsDuring, setupDynamo } from './engine.js';

// What one subtask's life costs in DynamoDB calls through the state machine (issue 44): a check of
// one task with a login and two more subtasks, each claimed and ended as a checker does (the task's
// and the operation's ends included), counted at the client. The target is at most 10 calls a subtask; the engine is not there yet (the
// projector of docs/check-engine.md "Write design" is not built), so that test is marked as failing
// until it is, and a second one holds today's count as a ceiling so no change adds calls unnoticed.

setupDynamo();
setupQueues();

const { Login, AgentSetting, PlaceBets } = Process.values;

/** Calls a subtask, averaged over a three-subtask check run to its end, and the calls by command and item kind. */
async function callsPerSubtask(): Promise<{ perSubtask: number; by: Record<string, number> }> {
  const check: Check = await newCheck([[Login, AgentSetting, PlaceBets]]);
  const { calls } = await callsDuring(async () => {
    for (const sub of check.tasks[0].subs) {
      // As the checker runs one (runSubtask.ts): the claim's applied entry stays on the row for the
      // end's write to remove. The end's follow-ups are applied inline here; the checker hands them to
      // the followUp queue's applier, which reads the row once more.
      const claim = await claimBeside(sub.id, `calls-${sub.id}`, sub, { keepForEnd: true });
      if (!claim) throw new Error(`subtask ${sub.id} not claimed`);
      await claim.followUps;
      const applied = claim.applied();
      await finishSubtask(
        claim.sub,
        `calls-${sub.id}`,
        { success: true, msg: 'ok' },
        // The checker has read the site's name for its run.
        { siteName: 'Calls site', clears: applied ? [applied] : [] },
      );
    }
  });
  const by: Record<string, number> = {};
  for (const c of calls) {
    const name = `${c.command.replace(/Command$/, '')} ${(c.pk ?? '').replace(/[#=:]\d.*$/, '')}`;
    by[name] = (by[name] ?? 0) + 1;
  }
  return { perSubtask: calls.length / check.tasks[0].subs.length, by };
}

/** Today's calls a subtask (2026-12-07, on the checker's path, the site's name known: 28.3 once the rollup was one guarded ADD, 26.3 once the claim wrote no record, 25.3 once it counted nothing, 25.7 with the maintenance windows' read: one Query a process every 5 s, a third of it on each of the 3 subtasks here). */
const TODAY_CEILING = 25.7;
/** Issue 44's target. */
const TARGET = 10;

describe("one subtask's life in DynamoDB calls", () => {
  it(`makes no more calls than today's ${TODAY_CEILING} a subtask`, async () => {
    const { perSubtask, by } = await callsPerSubtask();
    console.log(perSubtask, by);
    expect(perSubtask, JSON.stringify(by)).toBeLessThanOrEqual(TODAY_CEILING);
  });

  it.fails(`makes at most ${TARGET} calls a subtask (issue 44: not met yet)`, async () => {
    const { perSubtask, by } = await callsPerSubtask();
    expect(perSubtask, JSON.stringify(by)).toBeLessThanOrEqual(TARGET);
  });
});
