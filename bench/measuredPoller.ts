// The bank poller Lambda as the local stack runs it (functions/bank/poller.ts), for
// bench/bank.bench.ts, which gives the stack this entry in its place: each poll (one SQS record)
// runs inside its own `pollScope`, so the bench adds the DynamoDB calls and units of every poll
// to that poll alone, though a batch's polls run at once in one invocation. Same handler
// otherwise: the same schema, store, clock and due-poll rules. Loaded by the stack after it set
// the environment.

import { AsyncLocalStorage } from 'node:async_hooks';
import { runDuePoll } from '../functions/bank/pollDue.js';
import { PollMessage } from '../functions/bank/pollMessage.js';
import { bankRuntime } from '../functions/bank/runtime.js';
import { sqsRecordHandler } from '../functions/lib/queue/sqsRecordHandler.js';

/** What one poll or one stored statement cost: DynamoDB calls and units, and what it wrote. */
export interface Tally {
  calls: number;
  rcu: number;
  wcu: number;
  /** Rows written of the statement and balance stat entities (the poll found something). */
  rows: number;
  /** Calls and write units of the kept counts the poll moved at its end, for all its rows at once. */
  flushCalls: number;
  flushWcu: number;
  /** The poll a statement's tally belongs to (its share of the poll's counts). */
  poll?: Tally;
  /** Set by runDuePoll's outcome: the poll ran (not dropped as late, disabled or leased). */
  ran?: boolean;
}

export const newTally = (): Tally => ({ calls: 0, rcu: 0, wcu: 0, rows: 0, flushCalls: 0, flushWcu: 0 });

/** The poll a DynamoDB call belongs to. */
export const pollScope = new AsyncLocalStorage<Tally>();

/** Every poll's tally, in the order they ended, while `measuring` is on. */
export const polls: Tally[] = [];
export const measuring = { on: false };

export const handler = sqsRecordHandler(
  PollMessage,
  async (message) => {
    const tally = newTally();
    const outcome = await pollScope.run(tally, () => runDuePoll(bankRuntime(), message));
    tally.ran = outcome?.polled === true;
    if (measuring.on) polls.push(tally);
  },
  { parallel: true },
);
