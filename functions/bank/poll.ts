import { randomUUID } from 'node:crypto';
import { BankAccountStatus, NotifyStatus, SubAccountStatus } from '../../shared/enums.js';
import type { BankPollOutcome } from '../../shared/schemas/bank.js';
import { logger } from '../lib/logger.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { isBankChatOn } from './bankChat.js';
import type { Clock } from './clock.js';
import type {
  BankBalance,
  BankDriver,
  BankDriverContext,
  BankSession,
  BankStatementLine,
  BankSubAccount,
} from './drivers/bankDriver.js';
import { driverForBank } from './drivers/bankDriverRegistry.js';
import { accountStatusFor, BankSubAccountUnusableError, bankErrorMessage } from './drivers/errors.js';
import { withBankSession } from './drivers/withBankSession.js';
import { Category, createBankNotification, type NotifyTargets, notifyTargets } from './notify.js';
import { bankDriverContext, bankPortalFor as portalFor } from './drivers/bankPortal.js';
import { recoverIfStale } from './staleness.js';
import { cents, statementKeys } from './statementKey.js';
import type { BankStore, StoredBankAccount, StoredStatement, StoredSubAccount } from './store.js';

// One poll of one bank account: take the lease, sign in (or reuse the kept session), read the
// balances, read the statements of the sub-accounts whose balance moved, store what is new once,
// write a balance stat per change with its reconciliation, and release the lease, always.

/** A lease outlives any poll (each driver call is bounded by DRIVER_TIMEOUT_MS) and frees itself after. */
export const LEASE_MS = Number(process.env.BANK_LEASE_MS ?? 45_000);
export const DRIVER_TIMEOUT_MS = Number(process.env.BANK_DRIVER_TIMEOUT_MS ?? 10_000);
/** Statement keys a sub-account remembers, so re-read lines cost no write. */
const RECENT_KEYS = 200;

export type PollMode =
  /** A scheduled poll: balances, then statements where a balance moved (or never read). */
  | 'poll'
  /** Init / refresh sub-accounts: lists them with their detail, then polls. */
  | 'init'
  /** Refresh statements: reads the statements of every available sub-account (or `subId`). */
  | 'statements';

export interface PollDeps {
  store: BankStore;
  clock: Clock;
  driverFor?: (account: StoredBankAccount) => BankDriver;
  chatOn?: () => Promise<boolean>;
}

export interface PollRequest {
  accountId: number;
  mode: PollMode;
  subId?: number;
  /** Scheduled polls only: skipped unless the account is enabled (status 1). */
  requireEnabled?: boolean;
}

const defaultDriver = (account: StoredBankAccount) => driverForBank(account.bank_name, portalFor(account.bank_name));
const usable = (sub: StoredSubAccount) => sub.status === SubAccountStatus.values.Available;

export async function pollAccount(deps: PollDeps, req: PollRequest): Promise<BankPollOutcome> {
  const { store, clock } = deps;
  const token = randomUUID();
  const started = clock.now();
  const account = await store.takeLease(req.accountId, token, started, started + LEASE_MS);
  const skipped = (status: BankPollOutcome['status'], error: string | null = null): BankPollOutcome => ({
    account_id: req.accountId,
    polled: false,
    status,
    subs: 0,
    new_statements: 0,
    new_balance_stats: 0,
    error,
  });
  if (!account) {
    const current = await store.getAccount(req.accountId);
    return skipped(current?.status ?? BankAccountStatus.values.Disable, current ? 'A poll is running' : null);
  }
  let released = false;
  try {
    if (req.requireEnabled && account.status !== BankAccountStatus.values.Enable) {
      released = await store.releaseLease(account.id, token);
      return skipped(account.status);
    }
    const outcome = await runPoll(deps, account, req);
    const finished = clock.now();
    const patch: Partial<StoredBankAccount> = { last_refresh: finished };
    if (outcome.error === null) {
      patch.last_success = finished;
      patch.last_error = null;
      // A sign-in that works again clears Incorrect / Locked / Wrong; Disable stays the operator's.
      if (account.status !== BankAccountStatus.values.Disable) patch.status = BankAccountStatus.values.Enable;
    } else {
      patch.last_error = outcome.error;
      if (outcome.newStatus !== undefined && account.status !== BankAccountStatus.values.Disable)
        patch.status = outcome.newStatus;
    }
    if (outcome.session) {
      patch.session_enc = await encryptSecret(JSON.stringify(outcome.session), sessionContext(account.id));
    }
    released = await store.releaseLease(account.id, token, patch);
    if (outcome.error === null) await recoverIfStale(store, { ...account, ...patch }, finished, deps.chatOn);
    return {
      account_id: account.id,
      polled: true,
      status: patch.status ?? account.status,
      subs: outcome.subs,
      new_statements: outcome.newStatements,
      new_balance_stats: outcome.newStats,
      error: outcome.error,
    };
  } finally {
    if (!released) await store.releaseLease(account.id, token).catch(() => undefined);
  }
}

const sessionContext = (id: number) => ({ entity: 'bank_account', id, field: 'session' });

interface RunOutcome {
  error: string | null;
  newStatus?: BankPollOutcome['status'];
  /** Set when a new login happened: kept for the next poll. */
  session?: BankSession;
  subs: number;
  newStatements: number;
  newStats: number;
}

async function runPoll(deps: PollDeps, account: StoredBankAccount, req: PollRequest): Promise<RunOutcome> {
  const { store, clock } = deps;
  const driver = (deps.driverFor ?? defaultDriver)(account);
  const pwd = await decryptSecret(account.pwd_enc, { entity: 'bank_account', id: account.id, field: 'pwd' });
  let kept: BankSession | undefined;
  if (account.session_enc) {
    kept = await decryptSecret(account.session_enc, sessionContext(account.id))
      .then((s) => JSON.parse(s) as BankSession)
      .catch(() => undefined);
  }
  const ctx = bankDriverContext(account.bank_name, { user: account.user, pwd }, { timeoutMs: DRIVER_TIMEOUT_MS });
  let subs = await store.subsOf(account.id);
  const chatOn = await (deps.chatOn ?? isBankChatOn)();
  const targets = notifyTargets(account, chatOn);
  const counts = { newStatements: 0, newStats: 0 };

  try {
    // The reads that decide what to do next run on the kept session; an expired one signs in again.
    const first = await withBankSession(driver, ctx, kept, async (session) => {
      const needList = req.mode === 'init' || subs.length === 0;
      const listed = needList ? await driver.listSubAccounts(ctx, session) : undefined;
      const balances = await driver.fetchBalances(ctx, session);
      return { listed, balances };
    });
    const session = first.session;
    let { listed } = first.value;
    const { balances } = first.value;
    // A number the balances show that we do not know: the bank opened a sub-account; list them.
    if (!listed && balances.some((b) => !subs.some((s) => s.no === b.no))) {
      listed = await driver.listSubAccounts(ctx, session);
    }
    if (listed) subs = await upsertSubs(store, account, subs, listed, clock.now());

    const byNo = new Map(balances.map((b) => [b.no, b]));
    for (const sub of subs) {
      if (!usable(sub)) continue;
      if (req.subId !== undefined && sub.id !== req.subId) continue;
      const balance = byNo.get(sub.no);
      const moved =
        balance !== undefined &&
        sub.available_balance !== null &&
        cents(balance.available_balance) !== cents(sub.available_balance);
      const wanted = req.mode !== 'poll' || moved || sub.cursor === null || sub.pending_count > 0;
      if (!wanted) continue;
      await pollSub({ store, clock, driver, ctx, session, account, targets }, sub, balance, counts);
    }
    return {
      error: null,
      session: first.loggedIn ? session : undefined,
      subs: subs.length,
      ...counts,
    };
  } catch (error) {
    const message = bankErrorMessage(error);
    logger.warn('bank poll failed', { account_id: account.id, error: message });
    return { error: message, newStatus: accountStatusFor(error), subs: subs.length, ...counts };
  }
}

async function upsertSubs(
  store: BankStore,
  account: StoredBankAccount,
  known: StoredSubAccount[],
  listed: BankSubAccount[],
  now: number,
): Promise<StoredSubAccount[]> {
  const out: StoredSubAccount[] = [];
  for (const item of listed) {
    const existing = known.find((s) => s.no === item.no);
    const bankStatus = item.usable ? SubAccountStatus.values.Available : SubAccountStatus.values.Unavailable;
    if (!existing) {
      const created = await store.createSub({
        bank_name: account.bank_name,
        account_id: account.id,
        no: item.no,
        available_balance: null,
        status: bankStatus,
        processing: false,
        last_refresh: now,
        detail: item.detail,
        cursor: null,
        recent_keys: [],
        pending_sum_cents: 0,
        pending_count: 0,
        created_at: now,
      });
      if (created) out.push(created);
      continue;
    }
    // Disable (99) is the operator's; otherwise the bank says whether it is usable.
    const status = existing.status === SubAccountStatus.values.Disable ? existing.status : bankStatus;
    out.push(await store.updateSub(existing.id, { detail: item.detail, status, last_refresh: now }));
  }
  // Read again with the poller's own fields (cursor, recent keys), which writes do not return.
  // Sub-accounts the bank no longer lists stay (their statements refer to them).
  return out.length ? store.subsOf(account.id) : known;
}

interface SubPollContext {
  store: BankStore;
  clock: Clock;
  driver: BankDriver;
  ctx: BankDriverContext;
  session: BankSession;
  account: StoredBankAccount;
  targets: NotifyTargets;
}

/**
 * Statements of one sub-account, then its balance. The first read of a sub-account is its
 * baseline: its lines are stored as No Notify (-2) history and its balance is taken as the start.
 */
async function pollSub(
  c: SubPollContext,
  sub: StoredSubAccount,
  balance: BankBalance | undefined,
  counts: { newStatements: number; newStats: number },
): Promise<void> {
  const baseline = sub.cursor === null && sub.available_balance === null;
  const state = {
    cursor: sub.cursor,
    recent: [...sub.recent_keys],
    pendingCents: sub.pending_sum_cents,
    pendingCount: sub.pending_count,
  };
  let current = balance;
  try {
    await readStatements(c, sub, state, baseline, counts);
    // A transaction may land between the balance read and the statement read. The lines count
    // against a balance only when the balance read again after them is the same (nothing moved
    // meanwhile); otherwise the new lines are read against the new balance. At the baseline this
    // always runs (the history and the starting balance must agree); later only on a mismatch.
    const settle = async (needed: () => boolean) => {
      for (let attempt = 0; current && needed() && attempt < 3; attempt++) {
        const again = (await c.driver.fetchBalances(c.ctx, c.session)).find((b) => b.no === sub.no);
        if (!again || cents(again.available_balance) === cents(current.available_balance)) return;
        current = again;
        await readStatements(c, sub, state, baseline, counts);
      }
    };
    if (baseline) await settle(() => true);
    if (current && !baseline && sub.available_balance !== null) {
      const pre = cents(sub.available_balance);
      await settle(() => cents((current as BankBalance).available_balance) - pre !== state.pendingCents);
      const amount = cents(current.available_balance) - pre;
      if (amount !== 0) {
        await writeBalanceStat(c, sub, current.available_balance, amount, state);
        counts.newStats++;
        state.pendingCents = 0;
        state.pendingCount = 0;
      }
    }
  } catch (error) {
    if (error instanceof BankSubAccountUnusableError) {
      await c.store.updateSub(sub.id, { status: SubAccountStatus.values.Unavailable, last_refresh: c.clock.now() });
      return;
    }
    throw error;
  }
  await c.store.updateSub(sub.id, {
    cursor: state.cursor,
    recent_keys: state.recent.slice(-RECENT_KEYS),
    pending_sum_cents: state.pendingCents,
    pending_count: state.pendingCount,
    available_balance: current?.available_balance ?? sub.available_balance,
    last_refresh: c.clock.now(),
  });
}

async function readStatements(
  c: SubPollContext,
  sub: StoredSubAccount,
  state: { cursor: string | null; recent: string[]; pendingCents: number; pendingCount: number },
  baseline: boolean,
  counts: { newStatements: number },
): Promise<void> {
  const page = await c.driver.fetchStatements(c.ctx, c.session, { no: sub.no, since: state.cursor ?? undefined });
  const keys = statementKeys(c.account.bank_name, page.lines);
  const recent = new Set(state.recent);
  for (const [i, line] of page.lines.entries()) {
    const key = keys[i] as string;
    if (recent.has(key)) continue;
    const stored = await storeStatement(c, sub, line, key, baseline);
    recent.add(key);
    state.recent.push(key);
    if (!stored || baseline) continue;
    counts.newStatements++;
    state.pendingCents += line.inflow ? cents(line.amount) : -cents(line.amount);
    state.pendingCount++;
  }
  state.cursor = page.cursor;
}

/** Ids a caller allocated for a statement and its notification while it did other work. */
export interface StatementIds {
  statement: number;
  notification: number;
}

/** Both ids of a statement to store, allocated at once (an id of a duplicate is left unused: a gap). */
export async function allocateStatementIds(store: BankStore): Promise<StatementIds> {
  const [statement, notification] = await Promise.all([store.newStatementId(), store.newNotificationId()]);
  return { statement, notification };
}

/** What recording a statement or balance needs; the inbound bank webhook records through these too. */
export type RecordContext = Pick<SubPollContext, 'store' | 'clock' | 'account' | 'targets'>;

export async function storeStatement(
  c: RecordContext,
  sub: StoredSubAccount,
  line: BankStatementLine,
  key: string,
  baseline: boolean,
  ids?: StatementIds,
): Promise<boolean> {
  const now = c.clock.now();
  // A new statement's notification: its id allocated while the statement is stored (or before,
  // by the caller), the row written (and its delivery queued) beside the statement's own counts.
  const notificationId = baseline ? undefined : (ids?.notification ?? c.store.newNotificationId());
  if (notificationId instanceof Promise) notificationId.catch(() => undefined); // awaited only for a new statement
  const notify = async (statement: StoredStatement) =>
    notifyStatement(c, sub, line, statement.id, now, await notificationId);
  const statement = await c.store.createStatement(
    {
      bank_name: c.account.bank_name,
      account_id: c.account.id,
      sub_account_id: sub.id,
      sub_no: sub.no,
      human_date: line.time ? `${line.date} ${line.time}` : line.date,
      inflow: line.inflow,
      name: line.name,
      amount: line.amount,
      remark: line.remark,
      ref: line.ref ?? null,
      balance: null,
      key,
      send_date: line.date,
      send_time: line.time,
      notify_status: baseline ? NotifyStatus.values.NoNotify : c.targets.row,
      notified_at: null,
      created_at: now,
    },
    baseline ? undefined : notify,
    ids?.statement,
  );
  return statement !== undefined;
}

/** The bank notification of a statement (`statementId`, stored by this call or found stored before). */
export function notifyStatement(
  c: RecordContext,
  sub: StoredSubAccount,
  line: BankStatementLine,
  statementId: number,
  now: number,
  id?: number,
) {
  return createBankNotification(
    c.store,
    c.account,
    c.targets,
    {
      category: Category.Statement,
      business_id: statementId,
      sub: { id: sub.id, no: sub.no },
      created_at: now,
      context: {
        kind: 'statement',
        bank: c.account.bank_name,
        account: sub.no,
        sender: line.name,
        remark: line.remark,
        send_date: line.date,
        send_time: line.time,
        amount: line.amount.toFixed(2),
        inflow: line.inflow,
      },
    },
    id,
  );
}

export async function writeBalanceStat(
  c: RecordContext,
  sub: StoredSubAccount,
  cur: number,
  amountCents: number,
  state: { pendingCents: number; pendingCount: number },
): Promise<void> {
  const now = c.clock.now();
  const pre = sub.available_balance as number;
  const differenceCents = amountCents - state.pendingCents;
  const reconciled = differenceCents === 0;
  const stat = await c.store.createBalanceStat({
    bank_name: c.account.bank_name,
    account_id: c.account.id,
    sub_account_id: sub.id,
    sub_no: sub.no,
    pre_bal: pre,
    cur_bal: cur,
    amount: amountCents / 100,
    reconciled,
    difference: differenceCents / 100,
    statements_sum: state.pendingCents / 100,
    statements_count: state.pendingCount,
    notify_status: c.targets.row,
    notified_at: null,
    created_at: now,
  });
  if (!reconciled) {
    logger.warn('bank balance change does not match its statements', {
      account_id: c.account.id,
      sub_account_id: sub.id,
      difference: stat.difference,
    });
  }
  await createBankNotification(c.store, c.account, c.targets, {
    category: Category.Balance,
    business_id: stat.id,
    sub: { id: sub.id, no: sub.no },
    created_at: now,
    context: {
      kind: 'balance',
      bank: c.account.bank_name,
      account: sub.no,
      pre_bal: pre.toFixed(2),
      cur_bal: cur.toFixed(2),
      amount: (amountCents / 100).toFixed(2),
      reconciled,
      difference: (differenceCents / 100).toFixed(2),
    },
  });
}
