// Fault injection for the crash tests (docs/data-model.md "Follow-ups"): a process "dies" right
// after the N-th write of a named write sequence, so a test sees exactly what a crash at that point
// leaves, and then checks that recovery completes it.
//
// Production code names its multi-write steps with `writeSequence('subtask_end', fn)`. Every
// DynamoDB write (Put, Update, Delete, BatchWrite, TransactWrite) and every queue send counts as a
// write (`writeFaults`, a middleware on both clients), and so does a change made outside our data
// that the code names with `outsideWrite` (a request a webhook receiver answered: a crash right
// after it is the at-least-once case). Nothing is armed unless a test arms it:
//   - in a test process, `runToCrash({ sequence, afterWrites }, fn)` runs fn with the fault armed
//     for that call only (an AsyncLocalStorage scope, so several may run at once). After the N-th
//     write of the sequence the write's caller gets InjectedCrash, and from then on every write made
//     inside that call is refused with InjectedCrash before it is sent: a dead process writes nothing,
//     whatever its catch blocks would try next.
//   - in the local stack (the kill test), PATROL_CRASH_AT=`<sequence>:<N>` with PATROL_CRASH_MARKER=
//     `<file>`: after the N-th write of the first such sequence the process writes the marker (what it
//     wrote last) and stops itself with SIGSTOP, so nothing more is written until the test SIGKILLs
//     the stack's whole process tree. `<sequence>:<name>` instead aims at the first write of that
//     name (a command, e.g. PutItemCommand, or an outsideWrite label, e.g. WebhookRequest), wherever
//     it falls in the sequence.
// Unarmed, writeSequence is a plain call and the middleware passes every command through.

import { writeFileSync } from 'node:fs';
import { AsyncLocalStorage } from 'node:async_hooks';

/** What a write of a process that "died" gets. */
export class InjectedCrash extends Error {
  override name = 'InjectedCrash';
}

export interface CrashPoint {
  /** A name given to writeSequence, e.g. 'subtask_end'. */
  sequence: string;
  /**
   * The write after which the process dies: its number (1 = right after the sequence's first
   * write), or its name (the first write of that command or outsideWrite label).
   */
  afterWrites: number | string;
}

interface Plan extends CrashPoint {
  fired: boolean;
  /** The last write the sequence made before it died, e.g. 'UpdateItemCommand'. */
  lastWrite?: string;
  die(plan: Plan): void;
}

/** A scope of armed code: the plan, and the count of the armed sequence's writes once it began. */
interface Scope {
  plan: Plan;
  counter?: { count: number };
}

const scopes = new AsyncLocalStorage<Scope>();

/** DynamoDB and SQS commands that change state. */
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'SendMessageCommand',
  'SendMessageBatchCommand',
]);

function envPlan(): Plan | undefined {
  const at = process.env.PATROL_CRASH_AT;
  const marker = process.env.PATROL_CRASH_MARKER;
  if (!at || !marker) return undefined;
  const [sequence, n = ''] = at.split(':');
  const afterWrites = /^\d+$/.test(n) ? Number(n) : n;
  if (!sequence || afterWrites === '' || afterWrites === 0) return undefined;
  return {
    sequence,
    afterWrites,
    fired: false,
    die(plan) {
      writeFileSync(
        marker,
        JSON.stringify({ sequence, afterWrites, lastWrite: plan.lastWrite, pid: process.pid, at: Date.now() }),
      );
      // Frozen at this exact point: the test kills the whole tree (a real SIGKILL) while it stands still.
      process.kill(process.pid, 'SIGSTOP');
    },
  };
}

const armedByEnv = envPlan();

/**
 * Names a multi-write step so a test can crash it at any of its writes. Nested sequences count
 * towards the outer one that is armed.
 */
export function writeSequence<R>(name: string, fn: () => Promise<R>): Promise<R> {
  const scope = scopes.getStore();
  const plan = scope?.plan ?? armedByEnv;
  if (!plan || scope?.counter || plan.sequence !== name || plan.fired) return fn();
  return scopes.run({ plan, counter: { count: 0 } }, fn);
}

/**
 * Runs `fn` outside any armed sequence: work every caller of the process shares (an id block,
 * ids.ts), which belongs to no one sequence. Counted in the sequence that happened to need it
 * first, its crash would fail the other callers waiting on it as if their own process had died.
 */
export function outsideSequences<R>(fn: () => R): R {
  return scopes.exit(fn);
}

/**
 * Runs `fn` with a crash armed after the `afterWrites`-th write of the sequence `sequence` (test
 * only). Resolves when fn has settled, with whether the crash happened (false: the sequence had
 * fewer writes, or fn never entered it) and the command of the write it died after.
 */
export async function runToCrash(
  point: CrashPoint,
  fn: () => Promise<unknown>,
): Promise<{ crashed: boolean; lastWrite?: string }> {
  const plan: Plan = {
    ...point,
    fired: false,
    die: () => {
      throw new InjectedCrash(`crashed after write ${point.afterWrites} of ${point.sequence}`);
    },
  };
  try {
    await scopes.run({ plan }, fn);
  } catch (error) {
    if (!(error instanceof InjectedCrash)) throw error;
  }
  return { crashed: plan.fired, lastWrite: plan.lastWrite };
}

type Next = (args: unknown) => Promise<unknown>;

/** The SDK middleware (initialize step, outside retries) that counts writes and makes the crash. */
export const writeFaults =
  (next: Next, context: { commandName?: string }): Next =>
  async (args) => {
    const scope = scopes.getStore();
    const command = context.commandName ?? '';
    if (!scope || !WRITES.has(command)) return next(args);
    const { plan, counter } = scope;
    if (plan.fired) throw new InjectedCrash(`${command} after the crash of ${plan.sequence}`);
    const out = await next(args);
    if (counter) counted(plan, counter, command);
    return out;
  };

/** One write of the armed sequence done: the process dies here if this is the aimed one. */
function counted(plan: Plan, counter: { count: number }, write: string): void {
  const n = ++counter.count;
  if (plan.fired || (typeof plan.afterWrites === 'number' ? n !== plan.afterWrites : write !== plan.afterWrites))
    return;
  plan.fired = true;
  plan.lastWrite = write;
  plan.die(plan);
}

/**
 * A change outside our data, done (e.g. `WebhookRequest`: a receiver answered, or did not): counted
 * as a write of the armed sequence, so a crash can be aimed right after it, before anything records
 * it. Unarmed, nothing.
 */
export function outsideWrite(label: string): void {
  const scope = scopes.getStore();
  if (scope?.counter) counted(scope.plan, scope.counter, label);
}
