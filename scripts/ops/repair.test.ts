import { describe, expect, it } from 'vitest';
import type { RepairProgress } from '../../functions/data/repairProgress.js';
import { BUSY_MS, driveRepair, POLL_MS, type RepairDriver, STALL_MS } from './repair.js';

// npm run repair's loop against a fake Lambda and record, on a controlled clock: it never waits on
// an invocation, follows the record, invokes again after a pause, and gives up on a stalled run.

function fakeStage(script: (invocation: number, payload: { restart?: boolean }) => Partial<RepairProgress>[]) {
  let clock = 1_000_000;
  let record: RepairProgress | undefined;
  /** Record states each invocation will pass through, one per poll. */
  const pending: Partial<RepairProgress>[] = [];
  const invoked: { restart?: boolean }[] = [];
  const log: string[] = [];
  const driver: RepairDriver = {
    invoke: async (payload) => {
      invoked.push(payload);
      pending.push(...script(invoked.length, payload));
    },
    progress: async () => record,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
      const next = pending.shift();
      if (next) record = { ...(record as RepairProgress), ...next, updated_at: clock };
    },
    log: (line) => void log.push(line),
  };
  return {
    driver,
    invoked,
    log,
    setRecord: (r: RepairProgress) => {
      record = r;
    },
    clock: () => clock,
  };
}

const base = { run: 'r1', started_at: 0, done: [], invocations: 1, longest_step_ms: 0 };

describe('npm run repair', () => {
  it('queues an invocation, invokes the next when one pauses, and ends when the run finished', async () => {
    const stage = fakeStage((n) =>
      n === 1
        ? [{ ...base, done: ['type:a'] }, { paused_at: 1 }]
        : [
            { invocations: 2, paused_at: undefined },
            { done: ['type:a', 'type:b'], finished_at: 2 },
          ],
    );
    expect(await driveRepair(stage.driver, { restart: true })).toBe('finished');
    expect(stage.invoked).toEqual([{ restart: true }, {}]);
    expect(stage.log.at(-1)).toMatch(/Repair finished: run r1, 2 steps in 2 invocations/);
  });

  it('follows a run another caller is driving instead of starting a second one beside it', async () => {
    const stage = fakeStage(() => []);
    stage.setRecord({ ...base, updated_at: 1_000_000 - BUSY_MS / 2 });
    const follow = driveRepair({
      ...stage.driver,
      sleep: async (ms) => {
        await stage.driver.sleep(ms);
        stage.setRecord({ ...base, done: ['type:a'], finished_at: 5, updated_at: stage.clock() });
      },
    });
    expect(await follow).toBe('finished');
    expect(stage.invoked).toEqual([]);
  });

  it('gives up with "stalled" when nothing moves for 15 minutes (exit 1: run it again, it resumes)', async () => {
    const stage = fakeStage(() => []);
    expect(await driveRepair(stage.driver)).toBe('stalled');
    expect(stage.invoked).toHaveLength(1);
    expect(stage.clock() - 1_000_000).toBeGreaterThan(STALL_MS);
    expect(stage.clock() - 1_000_000).toBeLessThanOrEqual(STALL_MS + 2 * POLL_MS);
  });

  it('does not take an old finished run for the answer to its invocation', async () => {
    const stage = fakeStage(() => [
      { run: 'r2', invocations: 1, done: [] },
      { done: ['type:a'], finished_at: 9 },
    ]);
    stage.setRecord({ ...base, finished_at: 1, updated_at: 1 });
    expect(await driveRepair(stage.driver)).toBe('finished');
    expect(stage.log.at(-1)).toMatch(/run r2/);
  });
});
