import { BankAccountStatus, SubAccountStatus } from '../../shared/enums.js';
import { declaredRow } from '../../shared/listFields.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type BalanceStat,
  type BankAccount,
  type BankAccountDetail,
  type BankPollOutcome,
  type BatchSubAccountsBody,
  balanceStatListFields,
  bankAccountListFields,
  DEFAULT_MONITOR_RANGE,
  type NewBankAccountBody,
  SECRET_MASK,
  type Statement,
  type SubAccount,
  statementListFields,
  subAccountListFields,
  type UpdateBankAccountBody,
  type UpdateSubAccountBody,
} from '../../shared/schemas/bank.js';
import { config } from '../lib/config.js';
import type { ListOutcome } from '../lib/db/entity.js';
import type { LeaseRecord } from '../lib/db/lease.js';
import { assertOutboundUrl } from '../lib/net/outboundUrlGuard.js';
import { encryptSecret } from '../lib/secrets/index.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { apiKeyHash } from './apiKeyHash.js';
import { enqueuePolls } from './dispatch.js';
import { bankSecretContext, type PollStateData } from './entities.js';
import { BankAccountNotFoundError, BankUnavailableError, SubAccountNotFoundError } from './errors.js';
import { bankIncident, disabledIncidents } from './incidents.js';
import { duePolls } from './monitorSchedule.js';
import { type PollMode, pollAccount } from './poll.js';
import { pollSender } from './pollSender.js';
import { bankRuntime } from './runtime.js';
import type { StoredBalanceStat, StoredBankAccount, StoredStatement, StoredSubAccount } from './store.js';

// The bank API (issue 13 item 1). Rows never carry a secret: pwd and api_key show as SECRET_MASK
// and are revealed one at a time by revealSecret.ts. Every row is its declaration's fields
// (declaredRow) plus what the reply adds (shared/schemas/bank.ts `…ReplyFields`).

export { useBankClock } from './runtime.js';

const store = () => bankRuntime().store;
const now = () => bankRuntime().clock.now();

/** An account's row: its stored fields, the secrets as masks, the poller's state from its poll record. */
export function toAccountRow(a: StoredBankAccount, poll: LeaseRecord<PollStateData> | undefined): BankAccount {
  return {
    ...declaredRow(bankAccountListFields, a),
    pwd: SECRET_MASK,
    api_key: a.has_api_key ? SECRET_MASK : null,
    processing: poll?.status === 'in_progress',
    last_refresh: poll?.data.last_refresh ?? null,
    last_success: poll?.data.last_success ?? null,
    last_error: poll?.data.last_error ?? null,
  };
}

function toSubRow(s: StoredSubAccount, users: Map<number, string>): SubAccount {
  const user = users.get(s.account_id);
  return { ...declaredRow(subAccountListFields, s), account: user === undefined ? null : { user } };
}

const toStatementRow = (s: StoredStatement): Statement => ({
  ...declaredRow(statementListFields, s),
  sub_account: { no: s.sub_no },
});
const toStatRow = (s: StoredBalanceStat): BalanceStat => ({
  ...declaredRow(balanceStatListFields, s),
  sub_account: { no: s.sub_no },
});

async function accountRecord(id: number): Promise<StoredBankAccount> {
  const account = await store().getAccount(id);
  if (!account) throw new BankAccountNotFoundError(id);
  return account;
}

async function usersOf(subs: StoredSubAccount[]): Promise<Map<number, string>> {
  const accounts = await store().getAccounts(subs.map((s) => s.account_id));
  return new Map(accounts.map((a) => [a.id, a.user]));
}

const mapList = <S, T>(outcome: ListOutcome<S>, map: (row: S) => T): ListOutcome<T> => ({
  ...outcome,
  result: outcome.result.map(map),
});

export async function listAccounts(query: ListQuery): Promise<ListOutcome<BankAccount>> {
  const page = await store().listAccounts(query);
  const polls = await store().pollStatesOf(
    page.result.map((a) => a.id),
    now(),
  );
  return mapList(page, (a) => toAccountRow(a, polls.get(a.id)));
}

export async function getAccountDetail(id: number): Promise<BankAccountDetail> {
  const account = await accountRecord(id);
  const [subs, polls, config] = await Promise.all([
    store().subsOf(id),
    store().pollStatesOf([id], now()),
    getSystemConfig(),
  ]);
  const users = new Map([[account.id, account.user]]);
  return {
    ...toAccountRow(account, polls.get(id)),
    subs: subs.map((s) => toSubRow(s, users)),
    time_zone: config.time_zone,
  };
}

export async function accountSubs(id: number): Promise<SubAccount[]> {
  const account = await accountRecord(id);
  const users = new Map([[account.id, account.user]]);
  return (await store().subsOf(id)).map((s) => toSubRow(s, users));
}

export async function createAccount(body: NewBankAccountBody): Promise<BankAccount> {
  const id = await store().newAccountId();
  const at = now();
  const account = await store().createAccount({
    id,
    bank_name: body.bank_name,
    user: body.user,
    pwd_enc: await encryptSecret(body.pwd, bankSecretContext(id, 'pwd')),
    api_key_enc: null,
    has_api_key: false,
    holder: '',
    mobile: '',
    remark: '',
    monitor_interval: (await getSystemConfig()).bank.default_monitor_interval,
    monitor_range: DEFAULT_MONITOR_RANGE,
    status: BankAccountStatus.values.Enable,
    webhook: null,
    stale: false,
    stale_since: null,
    enabled_at: at,
    created_at: at,
  });
  await pollSoon(account, at);
  return toAccountRow(account, undefined);
}

export async function updateAccount(id: number, body: UpdateBankAccountBody): Promise<BankAccount> {
  const current = await accountRecord(id);
  if (body.webhook)
    await assertOutboundUrl(body.webhook, { field: 'webhook', allowedHosts: config.allowedPrivateHosts });
  const at = now();
  const patch: Partial<StoredBankAccount> = {};
  if (body.interval !== undefined) patch.monitor_interval = body.interval;
  if (body.range !== undefined) patch.monitor_range = body.range;
  if (body.user !== undefined) patch.user = body.user;
  if (body.remark !== undefined) patch.remark = body.remark;
  if (body.mobile !== undefined) patch.mobile = body.mobile;
  if (body.holder !== undefined) patch.holder = body.holder;
  if (body.webhook !== undefined) patch.webhook = body.webhook;
  if (body.pwd !== undefined) {
    patch.pwd_enc = await encryptSecret(body.pwd, bankSecretContext(id, 'pwd'));
    // A new password makes the kept session worthless (and it may belong to the old one).
    patch.session_enc = undefined;
  }
  if (body.api_key !== undefined) {
    patch.api_key_enc = await encryptSecret(body.api_key, bankSecretContext(id, 'api_key'));
    patch.has_api_key = true;
    patch.api_key_hash = apiKeyHash(body.api_key);
  }
  if (body.user !== undefined && body.user !== current.user) patch.session_enc = undefined;
  if (body.status !== undefined && body.status !== current.status) {
    patch.status = body.status;
    if (body.status === BankAccountStatus.values.Enable) {
      patch.enabled_at = at;
    } else {
      // Disabled accounts are not monitored, so they are not stale either.
      patch.stale = false;
      patch.stale_since = null;
    }
  }
  // Disabled, the account's incidents resolve with the write (issue 45, incidents.ts).
  const disabling = patch.status === BankAccountStatus.values.Disable;
  if (disabling) patch.rules_firing = [];
  const updated =
    disabling && patch.user === undefined
      ? await store().transitionAccount(id, patch, { followUps: disabledIncidents(current, at) })
      : await store().updateAccount(id, patch);
  if (disabling && patch.user !== undefined)
    for (const step of disabledIncidents(current, at)) await bankIncident.apply(step.args as never);
  const restarts =
    patch.status === BankAccountStatus.values.Enable ||
    (updated.status === BankAccountStatus.values.Enable && (body.interval || body.range));
  if (restarts) await pollSoon(updated, at);
  const polls = await store().pollStatesOf([id], at);
  return toAccountRow(updated, polls.get(id));
}

/**
 * Sends the polls an account is due before the dispatcher's next window (the tick already sent
 * its window without this account, or with its old interval), so enabling or re-timing takes
 * effect at once instead of at the next minute.
 */
async function pollSoon(account: StoredBankAccount, at: number): Promise<void> {
  if (account.status !== BankAccountStatus.values.Enable) return;
  const until = await store().dispatchedUntil();
  if (until <= at) return;
  const timeZone = (await getSystemConfig()).time_zone;
  const polls = duePolls(account, at, until, timeZone).map((due) => ({ account_id: account.id, due }));
  if (polls.length) await pollSender(enqueuePolls)(polls, at);
}

/**
 * A bank incident's Poll now (issue 45): one poll of the account as a scheduled one would run, but
 * whatever its status (a Locked account is polled only so), answering its error instead of throwing it.
 */
export async function pollAccountNow(accountId: number): Promise<BankPollOutcome> {
  await accountRecord(accountId);
  return pollAccount(bankRuntime(), { accountId, mode: 'poll' });
}

/** Runs a poll now, in this request: the operator sees the outcome (and its sub-accounts) at once. */
async function pollNow(accountId: number, mode: PollMode, subId?: number): Promise<BankPollOutcome> {
  await accountRecord(accountId);
  const outcome = await pollAccount(bankRuntime(), { accountId, mode, subId });
  if (outcome.polled && outcome.error && outcome.status === BankAccountStatus.values.Enable) {
    // Neither credentials nor data were wrong: the bank did not answer.
    throw new BankUnavailableError(outcome.error);
  }
  return outcome;
}

export const refreshAccount = (id: number) => pollNow(id, 'init');
export const refreshAccountStatements = (id: number) => pollNow(id, 'statements');

export async function refreshSubStatements(subId: number): Promise<BankPollOutcome> {
  const sub = await store().getSub(subId);
  if (!sub) throw new SubAccountNotFoundError(subId);
  return pollNow(sub.account_id, 'statements', subId);
}

export async function listSubs(query: ListQuery): Promise<ListOutcome<SubAccount>> {
  const page = await store().listSubs(query);
  const users = await usersOf(page.result);
  return mapList(page, (s) => toSubRow(s, users));
}

export async function updateSub(id: number, body: UpdateSubAccountBody): Promise<SubAccount> {
  const sub = await store().getSub(id);
  if (!sub) throw new SubAccountNotFoundError(id);
  const updated = await store().updateSub(id, { status: body.status }, { byOperator: true });
  return toSubRow(updated, await usersOf([updated]));
}

/** All or nothing: unknown ids are refused before any is changed. */
export async function batchSubs(body: BatchSubAccountsBody): Promise<{ updated: number; status: number }> {
  const ids = [...new Set(body.sub_account_ids)];
  const found = await store().getSubs(ids);
  const missing = ids.filter((id) => !found.some((s) => s.id === id));
  if (missing.length) throw new SubAccountNotFoundError(missing);
  let updated = 0;
  for (const sub of found) {
    if (sub.status === body.status) continue;
    await store().updateSub(sub.id, { status: body.status }, { byOperator: true });
    updated++;
  }
  return { updated, status: body.status };
}

export async function listStatements(query: ListQuery): Promise<ListOutcome<Statement>> {
  return mapList(await store().listStatements(query), toStatementRow);
}

export async function listBalanceStats(query: ListQuery): Promise<ListOutcome<BalanceStat>> {
  return mapList(await store().listBalanceStats(query), toStatRow);
}

export const SubStatus = SubAccountStatus.values;
