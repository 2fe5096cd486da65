import { randomUUID } from 'node:crypto';
import { Bank, SubAccountStatus } from '../../../shared/enums.js';
import type { BankWebhookBody, InboundBankWebhookReply } from '../../../shared/schemas/bankWebhook.js';
import type { BankStatementLine } from '../../bank/drivers/bankDriver.js';
import { notifyTargets } from '../../bank/notify.js';
import { addDayFigures, dayOf, LEASE_MS, snapshotEntry } from '../../bank/poll.js';
import {
  finishRecording,
  type RecordedSub,
  type RecordScope,
  recordBalance,
  recordRepeat,
  readingOf,
  recordScope,
  recordStatement,
  tallyFigures,
} from '../../bank/record.js';
import type { BankRuntime } from '../../bank/runtime.js';
import { statementKey } from '../../bank/statementKey.js';
import type { PollStateData, StoredBankAccount, StoredSubAccount } from '../../bank/store.js';
import { writeSequence } from '../../lib/db/faults.js';
import type { RecordChange } from '../../lib/db/keyedRecords.js';
import { ConflictError, ValidationError } from '../../lib/errors.js';

const LEASE_TRIES = 20;
const LEASE_WAIT_MS = 100;

export class AccountBusyError extends ConflictError {
  override name = 'AccountBusyError';
}

/**
 * Records what a bank-side pusher sent exactly as a poll would, through the bank's one recording
 * module (functions/bank/record.ts): the statement stored once by its key (the same key the poller
 * computes, so a statement seen by both is stored once), counted towards the sub-account's next
 * reconciliation, its notification created and its delivery enqueued; a balance change written as
 * a balance stat reconciled against the statements since the last one. Under the account's poll
 * lease, so a running poll and a push never overwrite each other's sub-account state.
 */
export function recordInbound(
  deps: BankRuntime,
  accounts: StoredBankAccount[],
  body: BankWebhookBody,
): Promise<InboundBankWebhookReply> {
  // Its writes are the sequence `bank_inbound` of the crash tests (lib/db/faults.ts).
  return writeSequence('bank_inbound', () => record(deps, accounts, body));
}

async function record(
  deps: BankRuntime,
  accounts: StoredBankAccount[],
  body: BankWebhookBody,
): Promise<InboundBankWebhookReply> {
  const { store, clock } = deps;
  const no = body.content.account;
  let found: { account: StoredBankAccount; sub: StoredSubAccount } | undefined;
  for (const account of accounts.filter((a) => a.bank_name === body.bank)) {
    const sub = (await store.subsOf(account.id)).find((s) => s.no === no);
    if (sub) found = { account, sub };
    if (found) break;
  }
  if (!found)
    throw new ValidationError({
      'content.account': `No sub-account ${no} of a ${Bank.label(body.bank)} account with this API key`,
    });
  if (found.sub.status === SubAccountStatus.values.Disable)
    throw new ValidationError({ 'content.account': `Sub-account ${no} is disabled` });

  const holder = randomUUID();
  let state: PollStateData | undefined;
  for (let i = 0; i < LEASE_TRIES && !state; i++) {
    const take = await store.takePollLease(found.account.id, holder, clock.now(), LEASE_MS);
    if (take.taken) state = take.record.data;
    else await clock.sleep(LEASE_WAIT_MS);
  }
  if (!state) throw new AccountBusyError('The account is being polled right now; send it again in a few seconds');
  const change: RecordChange = {};
  try {
    const [subs, chatOn, timeZone] = await Promise.all([store.getSubs([found.sub.id]), deps.chatOn(), deps.timeZone()]);
    const sub = subs[0] ?? found.sub;
    const { reading, countAfter } = readingOf(sub, (await store.readings([sub])).get(sub.id));
    const rec: RecordedSub = { id: sub.id, no: sub.no, available_balance: sub.available_balance, reading, countAfter };
    const now = clock.now();
    const scope = recordScope(store, found.account, notifyTargets(found.account, chatOn), now, timeZone);
    let reply: InboundBankWebhookReply;
    try {
      reply =
        body.type === 1
          ? await recordPushedStatement(scope, rec, body.content)
          : await recordPushedBalance(scope, rec, body.content);
    } finally {
      await finishRecording(scope);
    }
    if (reply.recorded) {
      // A recorded balance change wrote the row already (its balance and last refresh, with the change).
      const written =
        rec.written ?? (await store.updateSub(sub.id, { available_balance: rec.available_balance, last_refresh: now }));
      await store.saveReading(sub.id, { ...rec.reading, saved_at: now });
      // The poll record's snapshot of this sub-account follows, so the next poll reads its new statements.
      const fresh = state.subs !== undefined && state.subs_built === (state.subs_version ?? 0);
      if (fresh) change.set = { subs: { ...state.subs, [sub.no]: snapshotEntry(written, rec.reading) } };
      if (scope.tally.lastStatementAt) change.set = { ...change.set, last_statement_at: scope.tally.lastStatementAt };
      await addDayFigures(store, found.account.id, state, dayOf(now, timeZone), tallyFigures(scope.tally), change);
    }
    return reply;
  } finally {
    await store.releasePollLease(found.account.id, holder, change);
  }
}

async function recordPushedStatement(
  scope: RecordScope,
  sub: RecordedSub,
  content: Extract<BankWebhookBody, { type: 1 }>['content'],
): Promise<InboundBankWebhookReply> {
  const amount = Number(content.amount);
  const line: BankStatementLine = {
    no: sub.no,
    inflow: amount > 0,
    name: content.sender,
    remark: content.remark,
    amount: Math.abs(amount),
    date: content.send_date,
    time: content.send_time,
  };
  const key = statementKey(scope.account.bank_name, line);
  if ((await recordStatement(scope, sub, line, key)) === 'stored') return { recorded: true, duplicate: false };
  // Already recorded (by a poll or an earlier push): a notification that ends Duplication, so the
  // operator sees the repeat, and the receiver does not get the statement twice.
  const existing = await scope.store.statementIdOf(key);
  if (existing !== undefined) await recordRepeat(scope, sub, line, existing);
  return { recorded: false, duplicate: true };
}

async function recordPushedBalance(
  scope: RecordScope,
  sub: RecordedSub,
  content: Extract<BankWebhookBody, { type: 2 }>['content'],
): Promise<InboundBankWebhookReply> {
  const cur = Number(content.cur_bal);
  if (sub.available_balance === null) {
    // The first balance of a sub-account is its baseline, as for a poll.
    sub.available_balance = cur;
    return { recorded: true, duplicate: false };
  }
  const changed = await recordBalance(scope, sub, cur);
  return changed ? { recorded: true, duplicate: false } : { recorded: false, duplicate: true };
}
