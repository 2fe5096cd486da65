import { BankAccountStatus, SubAccountStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type BalanceStat,
  type BankAccount,
  type BankAccountDetail,
  type BankPollOutcome,
  type BatchSubAccountsBody,
  DEFAULT_MONITOR_RANGE,
  type NewBankAccountBody,
  SECRET_MASK,
  type Statement,
  type SubAccount,
  type UpdateBankAccountBody,
  type UpdateSubAccountBody,
} from '../../shared/schemas/bank.js';
import { config } from '../lib/config.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { assertOutboundUrl } from '../lib/net/outboundUrlGuard.js';
import { encryptSecret } from '../lib/secrets/index.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { type Clock, systemClock } from './clock.js';
import { enqueuePolls } from './dispatch.js';
import { BankAccountNotFoundError, BankUnavailableError, SubAccountNotFoundError } from './errors.js';
import { duePolls } from './monitorSchedule.js';
import { apiKeyHash } from '../bankWebhook/apiKeyHash.js';
import { type PollMode, pollAccount } from './poll.js';
import { pollSender } from './pollSender.js';
import {
  bankStore,
  type StoredBalanceStat,
  type StoredBankAccount,
  type StoredStatement,
  type StoredSubAccount,
} from './store.js';

// The bank API (issue 13 item 1). Rows never carry a secret: pwd and api_key show as SECRET_MASK
// and are revealed one at a time by revealSecret.ts.

let clock: Clock = systemClock;
/** Tests move time; production reads the system clock. */
export function useBankClock(next: Clock | undefined): void {
  clock = next ?? systemClock;
}

export function toAccountRow(a: StoredBankAccount): BankAccount {
  return {
    id: a.id,
    created_at: a.created_at,
    updated_at: a.updated_at,
    bank_name: a.bank_name,
    user: a.user,
    pwd: SECRET_MASK,
    holder: a.holder,
    mobile: a.mobile,
    remark: a.remark,
    monitor_interval: a.monitor_interval,
    monitor_range: a.monitor_range,
    status: a.status,
    webhook: a.webhook,
    api_key: a.has_api_key ? SECRET_MASK : null,
    processing: a.processing,
    last_refresh: a.last_refresh,
    last_success: a.last_success,
    last_error: a.last_error,
    stale: a.stale,
    stale_since: a.stale_since,
  };
}

function toSubRow(s: StoredSubAccount, users: Map<number, string>): SubAccount {
  const user = users.get(s.account_id);
  return {
    id: s.id,
    created_at: s.created_at,
    updated_at: s.updated_at,
    bank_name: s.bank_name,
    account_id: s.account_id,
    account: user === undefined ? null : { user },
    no: s.no,
    available_balance: s.available_balance,
    status: s.status,
    processing: s.processing,
    last_refresh: s.last_refresh,
    detail: s.detail,
  };
}

const toStatementRow = ({ key: _k, sub_no, send_date: _d, send_time: _t, ...s }: StoredStatement): Statement => ({
  ...s,
  sub_account: { no: sub_no },
});
const toStatRow = ({ sub_no, ...s }: StoredBalanceStat): BalanceStat => ({ ...s, sub_account: { no: sub_no } });

async function accountRecord(id: number): Promise<StoredBankAccount> {
  const account = await bankStore().getAccount(id);
  if (!account) throw new BankAccountNotFoundError(id);
  return account;
}

async function usersOf(subs: StoredSubAccount[]): Promise<Map<number, string>> {
  const accounts = await bankStore().getAccounts(subs.map((s) => s.account_id));
  return new Map(accounts.map((a) => [a.id, a.user]));
}

const mapList = <S, T>(outcome: ListOutcome<S>, map: (row: S) => T): ListOutcome<T> => ({
  ...outcome,
  result: outcome.result.map(map),
});

export async function listAccounts(query: ListQuery): Promise<ListOutcome<BankAccount>> {
  return mapList(await bankStore().listAccounts(query), toAccountRow);
}

export async function getAccountDetail(id: number): Promise<BankAccountDetail> {
  const account = await accountRecord(id);
  const subs = await bankStore().subsOf(id);
  const users = new Map([[account.id, account.user]]);
  return {
    ...toAccountRow(account),
    subs: subs.map((s) => toSubRow(s, users)),
    time_zone: (await getSystemConfig()).time_zone,
  };
}

export async function accountSubs(id: number): Promise<SubAccount[]> {
  const account = await accountRecord(id);
  const users = new Map([[account.id, account.user]]);
  return (await bankStore().subsOf(id)).map((s) => toSubRow(s, users));
}

export async function createAccount(body: NewBankAccountBody): Promise<BankAccount> {
  const store = bankStore();
  const id = await store.newAccountId();
  const now = clock.now();
  const account = await store.createAccount({
    id,
    bank_name: body.bank_name,
    user: body.user,
    pwd_enc: await encryptSecret(body.pwd, { entity: 'bank_account', id, field: 'pwd' }),
    api_key_enc: null,
    has_api_key: false,
    holder: '',
    mobile: '',
    remark: '',
    monitor_interval: (await getSystemConfig()).bank.default_monitor_interval,
    monitor_range: DEFAULT_MONITOR_RANGE,
    status: BankAccountStatus.values.Enable,
    webhook: null,
    processing: false,
    last_refresh: null,
    last_success: null,
    last_error: null,
    stale: false,
    stale_since: null,
    enabled_at: now,
    created_at: now,
  });
  await pollSoon(account, now);
  return toAccountRow(account);
}

export async function updateAccount(id: number, body: UpdateBankAccountBody): Promise<BankAccount> {
  const current = await accountRecord(id);
  if (body.webhook)
    await assertOutboundUrl(body.webhook, { field: 'webhook', allowedHosts: config.allowedPrivateHosts });
  const now = clock.now();
  const patch: Partial<StoredBankAccount> = {};
  if (body.interval !== undefined) patch.monitor_interval = body.interval;
  if (body.range !== undefined) patch.monitor_range = body.range;
  if (body.user !== undefined) patch.user = body.user;
  if (body.remark !== undefined) patch.remark = body.remark;
  if (body.mobile !== undefined) patch.mobile = body.mobile;
  if (body.holder !== undefined) patch.holder = body.holder;
  if (body.webhook !== undefined) patch.webhook = body.webhook;
  if (body.pwd !== undefined) {
    patch.pwd_enc = await encryptSecret(body.pwd, { entity: 'bank_account', id, field: 'pwd' });
    // A new password makes the kept session worthless (and it may belong to the old one).
    patch.session_enc = undefined;
  }
  if (body.api_key !== undefined) {
    patch.api_key_enc = await encryptSecret(body.api_key, { entity: 'bank_account', id, field: 'api_key' });
    patch.has_api_key = true;
    patch.api_key_hash = apiKeyHash(body.api_key);
  }
  if (body.user !== undefined && body.user !== current.user) patch.session_enc = undefined;
  if (body.status !== undefined && body.status !== current.status) {
    patch.status = body.status;
    if (body.status === BankAccountStatus.values.Enable) {
      patch.enabled_at = now;
    } else {
      // Disabled accounts are not monitored, so they are not stale either.
      patch.stale = false;
      patch.stale_since = null;
    }
  }
  const updated = await bankStore().updateAccount(id, patch);
  const restarts =
    patch.status === BankAccountStatus.values.Enable || (updated.status === 1 && (body.interval || body.range));
  if (restarts) await pollSoon(updated, now);
  return toAccountRow(updated);
}

/**
 * Sends the polls an account is due before the dispatcher's next window (the tick already sent
 * its window without this account, or with its old interval), so enabling or re-timing takes
 * effect at once instead of at the next minute.
 */
async function pollSoon(account: StoredBankAccount, now: number): Promise<void> {
  if (account.status !== BankAccountStatus.values.Enable) return;
  const until = await bankStore().dispatchedUntil();
  if (until <= now) return;
  const timeZone = (await getSystemConfig()).time_zone;
  const polls = duePolls(account, now, until, timeZone).map((due) => ({ account_id: account.id, due }));
  if (polls.length) await pollSender(enqueuePolls)(polls, now);
}

/** Runs a poll now, in this request: the operator sees the outcome (and its sub-accounts) at once. */
async function pollNow(accountId: number, mode: PollMode, subId?: number): Promise<BankPollOutcome> {
  await accountRecord(accountId);
  const outcome = await pollAccount({ store: bankStore(), clock }, { accountId, mode, subId });
  if (outcome.polled && outcome.error && outcome.status === BankAccountStatus.values.Enable) {
    // Neither credentials nor data were wrong: the bank did not answer.
    throw new BankUnavailableError(outcome.error);
  }
  return outcome;
}

export const refreshAccount = (id: number) => pollNow(id, 'init');
export const refreshAccountStatements = (id: number) => pollNow(id, 'statements');

export async function refreshSubStatements(subId: number): Promise<BankPollOutcome> {
  const sub = await bankStore().getSub(subId);
  if (!sub) throw new SubAccountNotFoundError(subId);
  return pollNow(sub.account_id, 'statements', subId);
}

export async function listSubs(query: ListQuery): Promise<ListOutcome<SubAccount>> {
  const page = await bankStore().listSubs(query);
  const users = await usersOf(page.result);
  return mapList(page, (s) => toSubRow(s, users));
}

export async function updateSub(id: number, body: UpdateSubAccountBody): Promise<SubAccount> {
  const sub = await bankStore().getSub(id);
  if (!sub) throw new SubAccountNotFoundError(id);
  const updated = await bankStore().updateSub(id, { status: body.status });
  return toSubRow(updated, await usersOf([updated]));
}

/** All or nothing: unknown ids are refused before any is changed. */
export async function batchSubs(body: BatchSubAccountsBody): Promise<{ updated: number; status: number }> {
  const ids = [...new Set(body.sub_account_ids)];
  const found = await bankStore().getSubs(ids);
  const missing = ids.filter((id) => !found.some((s) => s.id === id));
  if (missing.length) throw new SubAccountNotFoundError(missing);
  let updated = 0;
  for (const sub of found) {
    if (sub.status === body.status) continue;
    await bankStore().updateSub(sub.id, { status: body.status });
    updated++;
  }
  return { updated, status: body.status };
}

export async function listStatements(query: ListQuery): Promise<ListOutcome<Statement>> {
  return mapList(await bankStore().listStatements(query), toStatementRow);
}

export async function listBalanceStats(query: ListQuery): Promise<ListOutcome<BalanceStat>> {
  return mapList(await bankStore().listBalanceStats(query), toStatRow);
}

export const SubStatus = SubAccountStatus.values;
