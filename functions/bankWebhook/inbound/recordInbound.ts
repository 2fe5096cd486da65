import { randomUUID } from 'node:crypto';
import { SubAccountStatus } from '../../../shared/enums.js';
import type { BankWebhookBody, InboundBankWebhookReply } from '../../../shared/schemas/bankWebhook.js';
import { ConflictError, ValidationError } from '../../lib/errors.js';
import { findUniqueOwner } from '../../lib/db/unique.js';
import { isBankChatOn } from '../../bank/bankChat.js';
import { systemClock } from '../../bank/clock.js';
import type { BankStatementLine } from '../../bank/drivers/bankDriver.js';
import { notifyTargets } from '../../bank/notify.js';
import {
  allocateStatementIds,
  LEASE_MS,
  notifyStatement,
  type RecordContext,
  type StatementIds,
  storeStatement,
  writeBalanceStat,
} from '../../bank/poll.js';
import { cents, statementKey } from '../../bank/statementKey.js';
import { type BankStore, bankStore, type StoredBankAccount, type StoredSubAccount } from '../../bank/store.js';

const RECENT_KEYS = 200;
const LEASE_TRIES = 20;
const LEASE_WAIT_MS = 100;

export class AccountBusyError extends ConflictError {
  override name = 'AccountBusyError';
}

/**
 * Records what a bank-side pusher sent, exactly as a poll would (functions/bank/poll.ts): the
 * statement stored once by its key (the same key the poller computes, so a statement seen by both
 * is stored once), counted towards the sub-account's next balance reconciliation, its bank
 * notification created and its delivery enqueued; a balance change written as a balance stat
 * reconciled against the statements since the last one. Under the account's poll lease, so a
 * running poll and a push never overwrite each other's sub-account state.
 */
export async function recordInbound(
  accounts: StoredBankAccount[],
  body: BankWebhookBody,
  store: BankStore = bankStore(),
): Promise<InboundBankWebhookReply> {
  const no = body.content.account;
  let found: { account: StoredBankAccount; sub: StoredSubAccount } | undefined;
  for (const account of accounts.filter((a) => a.bank_name === body.bank)) {
    const sub = (await store.subsOf(account.id)).find((s) => s.no === no);
    if (sub) found = { account, sub };
    if (found) break;
  }
  if (!found)
    throw new ValidationError({
      'content.account': `No sub-account ${no} of a ${body.bank === 1 ? 'KBZ' : 'AYA'} account with this API key`,
    });
  if (found.sub.status === SubAccountStatus.values.Disable)
    throw new ValidationError({ 'content.account': `Sub-account ${no} is disabled` });

  // What needs no lease is read or allocated while the lease is taken: the chat setting and a
  // statement's ids (left unused when the statement turns out stored before).
  const chatOn = isBankChatOn();
  const ids = body.type === 1 ? allocateStatementIds(store) : undefined;
  for (const early of [chatOn, ids]) early?.catch(() => undefined); // awaited below, once leased
  const token = randomUUID();
  let leased: StoredBankAccount | undefined;
  for (let i = 0; i < LEASE_TRIES && !leased; i++) {
    const now = Date.now();
    leased = await store.takeLease(found.account.id, token, now, now + LEASE_MS);
    if (!leased) await systemClock.sleep(LEASE_WAIT_MS);
  }
  if (!leased) throw new AccountBusyError('The account is being polled right now; send it again in a few seconds');
  try {
    const sub = (await store.getSub(found.sub.id)) as StoredSubAccount;
    const c: RecordContext = {
      store,
      clock: systemClock,
      account: leased,
      targets: notifyTargets(leased, await chatOn),
    };
    return body.type === 1
      ? await recordStatement(c, sub, body.content, await (ids as Promise<StatementIds>))
      : await recordBalance(c, sub, body.content);
  } finally {
    await store.releaseLease(found.account.id, token);
  }
}

async function recordStatement(
  c: RecordContext,
  sub: StoredSubAccount,
  content: Extract<BankWebhookBody, { type: 1 }>['content'],
  ids: StatementIds,
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
  const key = statementKey(c.account.bank_name, line);
  const stored = await storeStatement(c, sub, line, key, false, ids);
  if (!stored) {
    // Already recorded (by a poll or an earlier push): a notification that ends Duplication, so the
    // operator sees the repeat, and the receiver does not get the statement twice.
    const existing = await findUniqueOwner('bank_statement', 'key', key);
    if (existing !== undefined) await notifyStatement(c, sub, line, existing, c.clock.now(), ids.notification);
    return { recorded: false, duplicate: true };
  }
  await c.store.updateSub(sub.id, {
    recent_keys: [...sub.recent_keys, key].slice(-RECENT_KEYS),
    pending_sum_cents: sub.pending_sum_cents + (line.inflow ? cents(line.amount) : -cents(line.amount)),
    pending_count: sub.pending_count + 1,
  });
  return { recorded: true, duplicate: false };
}

async function recordBalance(
  c: RecordContext,
  sub: StoredSubAccount,
  content: Extract<BankWebhookBody, { type: 2 }>['content'],
): Promise<InboundBankWebhookReply> {
  const cur = Number(content.cur_bal);
  const now = c.clock.now();
  if (sub.available_balance === null) {
    // The first balance of a sub-account is its baseline, as for a poll.
    await c.store.updateSub(sub.id, { available_balance: cur, last_refresh: now });
    return { recorded: true, duplicate: false };
  }
  const amount = cents(cur) - cents(sub.available_balance);
  if (amount === 0) return { recorded: false, duplicate: true };
  await writeBalanceStat(c, sub, cur, amount, { pendingCents: sub.pending_sum_cents, pendingCount: sub.pending_count });
  await c.store.updateSub(sub.id, {
    available_balance: cur,
    pending_sum_cents: 0,
    pending_count: 0,
    last_refresh: now,
  });
  return { recorded: true, duplicate: false };
}
