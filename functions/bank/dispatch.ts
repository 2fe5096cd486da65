import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { Clock } from './clock.js';
import { duePolls } from './monitorSchedule.js';
import { delayFor, type PollMessage } from './pollMessage.js';
import { pollSender } from './pollSender.js';
import { markIfStale } from './staleness.js';
import type { BankStore } from './store.js';

// The minute tick (EventBridge Scheduler fires at most once a minute; locally the same handler on
// the local timer): for every enabled account, the polls due before the next tick are put on the
// bank queue, each delayed to its second. Windows follow each other without gap or overlap: the
// end of the last one is kept in the table and moved with a conditional write, so a repeated or
// doubled tick sends nothing twice.

/** A window reaches past the next tick by this much, so a late tick finds its first seconds sent. */
export const WINDOW_MS = 60_000;
export const WINDOW_SLACK_MS = 5_000;

export interface DispatchDeps {
  store: BankStore;
  clock: Clock;
  /** Sends the polls; the default puts them on the bank queue with their DelaySeconds. */
  enqueue?: (polls: PollMessage[], now: number) => Promise<void>;
  timeZone?: () => Promise<string>;
  chatOn?: () => Promise<boolean>;
}

export interface DispatchOutcome {
  from: number;
  to: number;
  accounts: number;
  polls: number;
  stale: number;
  leasesFreed: number;
}

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
  const prev = await store.dispatchedUntil();
  const from = Math.max(prev, now);
  const to = now + WINDOW_MS + WINDOW_SLACK_MS;
  const outcome: DispatchOutcome = { from, to, accounts: 0, polls: 0, stale: 0, leasesFreed: 0 };
  if (to <= from || !(await store.advanceDispatch(prev, to))) return outcome;

  const timeZone = await (deps.timeZone ?? (async () => (await getSystemConfig()).time_zone))();
  const accounts = await store.enabledAccounts();
  outcome.accounts = accounts.length;
  const polls: PollMessage[] = [];
  for (const account of accounts) {
    // A lease past its expiry was left by a poller that died: freed here, so the flag the tables
    // show does not stay on (the next poll would take it over anyway).
    if (account.processing && account.lease_token && (account.lease_until ?? 0) <= now) {
      if (await store.releaseLease(account.id, account.lease_token)) outcome.leasesFreed++;
    }
    if (await markIfStale(store, account, now, timeZone, deps.chatOn)) outcome.stale++;
    for (const due of duePolls(account, from, to, timeZone)) polls.push({ account_id: account.id, due });
  }
  polls.sort((a, b) => a.due - b.due);
  await (deps.enqueue ?? pollSender(enqueuePolls))(polls, now);
  outcome.polls = polls.length;
  logger.info('bank polls dispatched', { ...outcome });
  return outcome;
}
