import { keyedRecords } from '../lib/db/keyedRecords.js';

// A data repair that resumes. The whole repair (every entity type recounted, then the rollups
// rebuilt) takes longer than one invocation on a large table; run from the start each time, a rerun
// timed out where the first had. Its progress is a record of its own: the steps done in the current
// run. An invocation skips what is done, stops cleanly while it still has time to save (the step
// ahead may take as long as the longest so far, plus a margin), and the next one goes on from there.

/** One step of the repair: a name that stays the same across invocations, and its work. */
export interface RepairStep {
  name: string;
  run: () => Promise<unknown>;
}

/** The cursor: which run, what it finished, and whether it is done. */
export interface RepairProgress {
  run: string;
  started_at: number;
  updated_at: number;
  /** Names of the steps finished in this run, in order. */
  done: string[];
  /** Set when every step is done: the next invocation starts a new run. */
  finished_at?: number;
  /** Set when an invocation stopped with steps left (the next one resumes). */
  paused_at?: number;
  invocations: number;
  /** The longest step so far (ms): how much time an invocation keeps in hand before starting one. */
  longest_step_ms: number;
}

export type RepairOutcome =
  | { status: 'finished'; run: string; done: number }
  | { status: 'paused'; run: string; done: number; left: number };

/** Kept beyond the longest step before starting another: the save and the invocation's own end. */
export const STOP_MARGIN_MS = 20_000;

export const repairProgress = () => keyedRecords<RepairProgress>('repair_progress');

export interface RunRepairOptions {
  steps: readonly RepairStep[];
  /** Milliseconds the invocation has left (Lambda's context.getRemainingTimeInMillis). */
  timeLeft: () => number;
  /** Start a new run even when one is unfinished. */
  restart?: boolean;
  now?: () => number;
}

/**
 * Runs the steps the current run has not done, saving after each; starts a new run when the last
 * one finished (or when asked). Answers whether it finished or paused with steps left.
 */
export async function runRepair(opts: RunRepairOptions): Promise<RepairOutcome> {
  const now = opts.now ?? Date.now;
  const records = repairProgress();
  const found = await records.get('', { consistent: true });
  const progress: RepairProgress =
    found && !found.finished_at && !opts.restart
      ? { ...found, paused_at: undefined }
      : {
          run: new Date(now()).toISOString(),
          started_at: now(),
          updated_at: now(),
          done: [],
          invocations: 0,
          longest_step_ms: 0,
        };
  progress.invocations++;
  const save = () => records.put('', { ...progress, updated_at: now() });
  await save();
  const left = () => opts.steps.filter((s) => !progress.done.includes(s.name));
  for (const step of left()) {
    if (opts.timeLeft() < progress.longest_step_ms + STOP_MARGIN_MS) {
      progress.paused_at = now();
      await save();
      return { status: 'paused', run: progress.run, done: progress.done.length, left: left().length };
    }
    const began = now();
    await step.run();
    progress.longest_step_ms = Math.max(progress.longest_step_ms, now() - began);
    progress.done.push(step.name);
    await save();
  }
  progress.finished_at = now();
  await save();
  return { status: 'finished', run: progress.run, done: progress.done.length };
}
