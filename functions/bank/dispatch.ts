import { randomUUID } from 'node:crypto';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { Clock } from './clock.js';
import { duePolls } from './monitorSchedule.js';
import { delayFor, type PollMessage } from './pollMessage.js';
import { pollSender } from './pollSender.js';
import { markIfStale } from './staleness.js';
import type { BankStore } from './store.js';

// The minute tick (EventBridge Scheduler fires at most once a minute; locally the same handler on
// the local timer): for every enabled account, the polls due before the next tick are put on the
// bank queue, each delayed to its second. Windows follow each other without gap or overlap: the
// end of the last one is kept on the window's lease record (lib/db/lease.ts), which a tick holds
// while it sends, so a repeated or doubled tick sends nothing twice.

/** A window reaches past the next tick by this much, so a late tick finds its first seconds sent. */
export const WINDOW_MS = 60_000;
export const WINDOW_SLACK_MS = 5_000;

export interface DispatchDeps {
  store: BankStore;
  clock: Clock;
  /** The configured time zone (system config time_zone). */
  timeZone: () => Promise<string>;
  /** Whether the bank chat channel is on, for the staleness notices. */
  chatOn: () => Promise<boolean>;
  /** Sends the polls; the default puts them on the bank queue with their DelaySeconds. */
  enqueue?: (polls: PollMessage[], now: number) => Promise<void>;
}

export interface DispatchOutcome {
  from: number;
  to: number;
  accounts: number;
  polls: number;
  stale: number;
}

/** How long a tick may hold the window before another may take it over (a tick that died). */
export const WINDOW_LEASE_MS = 50_000;

/** Puts polls on the bank queue, grouped by their delay (one SendMessageBatch per 10). */
export async function enqueuePolls(polls: PollMessage[], now: number): Promise<void> {
  const byDelay = new Map<number, PollMessage[]>();
  for (const p of polls) {
    const d = delayFor(p.due, now);
    const group = byDelay.get(d) ?? [];
    group.push(p);
    byDelay.set(d, group);
  }
  await Promise.all([...byDelay].map(([delaySeconds, group]) => sendToQueue('bank', group, { delaySeconds })));
}

export async function dispatchPolls(deps: DispatchDeps): Promise<DispatchOutcome> {
  const { store, clock } = deps;
  const now = clock.now();
  const holder = randomUUID();
  const to = now + WINDOW_MS + WINDOW_SLACK_MS;
  // The window's lease: a tick running (or a doubled one) leaves the other with nothing to send.
  const window = await store.takeDispatchWindow(holder, now, WINDOW_LEASE_MS);
  const from = Math.max(window.until, now);
  const outcome: DispatchOutcome = { from, to, accounts: 0, polls: 0, stale: 0 };
  if (!window.taken) return outcome;
  if (to <= from) {
    await store.advanceDispatchWindow(holder, window.until);
    return outcome;
  }
  try {
    const timeZone = await deps.timeZone();
    const [accounts, { states }] = await Promise.all([store.enabledAccounts(), store.allPollStates(now)]);
    outcome.accounts = accounts.length;
    const polls: PollMessage[] = [];
    for (const account of accounts) {
      const poll = states.get(account.id)?.data ?? {};
      if (await markIfStale(deps, account, poll, now, timeZone)) outcome.stale++;
      for (const due of duePolls(account, from, to, timeZone)) polls.push({ account_id: account.id, due });
    }
    polls.sort((a, b) => a.due - b.due);
    await (deps.enqueue ?? pollSender(enqueuePolls))(polls, now);
    outcome.polls = polls.length;
    // The window moves once its polls are sent: a tick that dies before leaves it for the next one
    // to send again (a poll sent twice finds the first one's lease), never a gap.
    await store.advanceDispatchWindow(holder, to);
  } catch (error) {
    await store.advanceDispatchWindow(holder, window.until).catch(() => undefined);
    throw error;
  }
  logger.info('bank polls dispatched', { ...outcome });
  return outcome;
}
