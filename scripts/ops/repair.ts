// npm run repair -- --stage prod [--restart]
//
// Runs the stage's data repair (the registry's dataRepair, found by the stack output
// DataRepairFunction of Patrol-<stage>, not by a description every stage's function shares) until
// it is done: each invocation is queued (Event), never waited on, and the script follows the
// repair's progress record in the table (TableName), invoking again when an invocation stopped
// with steps left (functions/data/repairProgress.ts). Exit 0 when the run finished, 1 when it
// stalled, 2 on a usage or AWS error.
import type { RepairProgress } from '../../functions/data/repairProgress.js';
import { invokeLive, output, parseOpsArgs, runMain, sleep, stageOutputs } from './cli.js';

/** How often the progress record is read. */
export const POLL_MS = 10_000;
/**
 * An invocation that saved nothing for this long died (it saves after every step, and a step is
 * far shorter than the function's 300 s): Lambda retries a failed queued invocation twice itself.
 */
export const STALL_MS = 15 * 60_000;
/** A run another caller is driving: saved this recently, neither paused nor finished. */
export const BUSY_MS = 6 * 60_000;

export interface RepairDriver {
  invoke(payload: { restart?: boolean }): Promise<unknown>;
  progress(): Promise<RepairProgress | undefined>;
  now(): number;
  sleep(ms: number): Promise<void>;
  log(line: string): void;
}

/**
 * Queues a repair and follows its record until the run finishes: a paused invocation is followed
 * by the next; a run nobody moves for STALL_MS ends the wait with 'stalled'.
 */
export async function driveRepair(d: RepairDriver, opts: { restart?: boolean; force?: boolean } = {}) {
  const before = await d.progress();
  /** The record as it was when we last invoked: a newer one (another run, a later invocation) is the answer. */
  let mark = { run: before?.run, invocations: before?.invocations ?? 0 };
  const newer = (p: RepairProgress) => p.run !== mark.run || p.invocations > mark.invocations;
  if (before && !before.finished_at && !before.paused_at && d.now() - before.updated_at < BUSY_MS && !opts.force) {
    // Another caller's invocation is at work: follow it instead of starting a second one beside it.
    d.log(`A repair is running (run ${before.run}): following it.`);
    mark = { run: before.run, invocations: before.invocations - 1 };
  } else {
    await d.invoke({ restart: opts.restart });
  }
  let lastChange = d.now();
  let seen = before?.updated_at ?? 0;
  for (;;) {
    await d.sleep(POLL_MS);
    const p = await d.progress();
    if (p && p.updated_at !== seen) {
      seen = p.updated_at;
      lastChange = d.now();
      d.log(
        `run ${p.run}: ${p.done.length} steps done, invocation ${p.invocations}${p.done.length ? ` (last: ${p.done.at(-1)})` : ''}`,
      );
    }
    if (p && newer(p) && p.finished_at) {
      d.log(`Repair finished: run ${p.run}, ${p.done.length} steps in ${p.invocations} invocations.`);
      return 'finished' as const;
    }
    if (p && newer(p) && p.paused_at) {
      d.log('The invocation stopped before its time ran out, with steps left: invoking the next.');
      mark = { run: p.run, invocations: p.invocations };
      await d.invoke({});
      lastChange = d.now();
      continue;
    }
    if (d.now() - lastChange > STALL_MS) {
      d.log(
        `No progress for ${STALL_MS / 60_000} minutes: read the dataRepair function's logs, then run again (it resumes).`,
      );
      return 'stalled' as const;
    }
  }
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const args = parseOpsArgs(argv, 'usage: npm run repair -- --stage <name> [--restart] [--force]');
  const outputs = await stageOutputs(args.stage);
  const fn = output(outputs, 'DataRepairFunction', args.stage);
  // The record is read with the repair's own code (its key is built in lib/db), on the stage's table.
  process.env.TABLE_NAME = output(outputs, 'TableName', args.stage);
  const { repairProgress } = await import('../../functions/data/repairProgress.js');
  const outcome = await driveRepair(
    {
      invoke: (payload) => invokeLive(fn, payload, 'event'),
      progress: () => repairProgress().get('', { consistent: true }),
      now: Date.now,
      sleep,
      log: (line) => console.log(line),
    },
    { restart: args.flags.has('restart'), force: args.flags.has('force') },
  );
  return outcome === 'finished' ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(() => main());
