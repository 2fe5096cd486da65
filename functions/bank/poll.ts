import { randomUUID } from 'node:crypto';
import { BankAccountStatus, SubAccountStatus } from '../../shared/enums.js';
import type { BankPollOutcome } from '../../shared/schemas/bank.js';
import { sketchAttr, sketchBucket } from '../lib/durationSketch.js';
import { writeSequence } from '../lib/db/faults.js';
import type { RecordChange } from '../lib/db/keyedRecords.js';
import { logger } from '../lib/logger.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import type { Clock } from './clock.js';
import type { BankBalance, BankDriver, BankDriverContext, BankSession, BankSubAccount } from './drivers/bankDriver.js';
import { bankDriverContext, bankPortalFor as portalFor } from './drivers/bankPortal.js';
import { driverForBank } from './drivers/bankDriverRegistry.js';
import { accountStatusFor, BankSubAccountUnusableError, bankErrorMessage } from './drivers/errors.js';
import { withBankSession } from './drivers/withBankSession.js';
import {
  bankSecretContext,
  type DayFigures,
  type PollStateData,
  SNAP_READ,
  SNAP_USABLE,
  type SubSnapshot,
} from './entities.js';
import type { ActiveAlertRule } from '../bankAlertRules/rulesForAccount.js';
import { pollFigures, ruleIncidents, statusIncidents } from './incidents.js';
import { notifyTargets } from './notify.js';
import {
  finishRecording,
  type RecordedSub,
  type RecordScope,
  recordBalance,
  recordScope,
  readingOf,
  recordStatement,
  tallyFigures,
} from './record.js';
import { recoverIfStale } from './staleness.js';
import { cents, statementKeys } from './statementKey.js';
import type { BankStore, StoredBankAccount, StoredSubAccount, SubReading } from './store.js';

// One poll of one bank account (docs/bank-monitor.md "One poll"): take the account's lease (its
// small poll record comes back with it) while the account is read, sign in or reuse the kept
// session, read the balances, and compare them with the sub-account snapshot on the poll record.
// When nothing moved that is all, and the release writes the outcome and the day's figures in the
// same write: three calls, two write units. When a balance moved, the statements of those
// sub-accounts are read and recorded (record.ts), each sub-account's reading and balance written,
// and the snapshot goes back with the release.

/** A lease outlives any poll (each driver call is bounded by DRIVER_TIMEOUT_MS) and frees itself after. */
export const LEASE_MS = Number(process.env.BANK_LEASE_MS ?? 45_000);
export const DRIVER_TIMEOUT_MS = Number(process.env.BANK_DRIVER_TIMEOUT_MS ?? 10_000);

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
  /** Whether the bank chat (Telegram) channel is on (notifications/telegram/bankChatOn.ts). */
  chatOn: () => Promise<boolean>;
  /** The configured time zone (system config time_zone). */
  timeZone: () => Promise<string>;
  driverFor?: (account: StoredBankAccount) => BankDriver;
  /** The enabled alert rules watching an account (bankAlertRules/rulesForAccount.ts, cached); none when absent. */
  rulesFor?: (account: StoredBankAccount) => Promise<ActiveAlertRule[]>;
}

export interface PollRequest {
  accountId: number;
  mode: PollMode;
  subId?: number;
  /** Scheduled polls only: skipped unless the account is enabled (status 1). */
  requireEnabled?: boolean;
  /** Scheduled polls only: run only while the account is still due then (`false`: dropped, nothing written). */
  isDue?: (account: StoredBankAccount) => boolean;
  /** How late the poll started after its due second (ms), added to the day's lag sketch. */
  lagMs?: number;
  /** The configured time zone when the caller read it already (a scheduled poll's due check). */
  timeZone?: string;
}

const defaultDriver = (account: StoredBankAccount) => driverForBank(account.bank_name, portalFor(account.bank_name));

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day (YYYY-MM-DD) of an instant in the configured zone. */
export function dayOf(ms: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(ms));
}

/** A poll's outcome; `due: false` when a scheduled poll was no longer due (dropped, nothing written). */
export interface PollOutcome extends BankPollOutcome {
  due?: false;
}

/** One poll; its writes are the sequence `bank_poll` of the crash tests (lib/db/faults.ts). */
export function pollAccount(deps: PollDeps, req: PollRequest): Promise<PollOutcome> {
  return writeSequence('bank_poll', () => poll(deps, req));
}

async function poll(deps: PollDeps, req: PollRequest): Promise<PollOutcome> {
  const { store, clock } = deps;
  const holder = randomUUID();
  const started = clock.now();
  // The lease and the account at once: the poll record comes back with the take.
  const [lease, account] = await Promise.all([
    store.takePollLease(req.accountId, holder, started, LEASE_MS),
    store.getAccountWithSecrets(req.accountId),
  ]);
  const skipped = (status: BankPollOutcome['status'], error: string | null = null): BankPollOutcome => ({
    account_id: req.accountId,
    polled: false,
    status,
    subs: 0,
    new_statements: 0,
    new_balance_stats: 0,
    error,
  });
  // A scheduled poll no longer due is dropped first, whoever holds the lease.
  const due = !account || !req.isDue || req.isDue(account);
  let released = !lease.taken;
  try {
    if (!due) return { ...skipped(account.status), due: false };
    if (!lease.taken)
      return skipped(account?.status ?? BankAccountStatus.values.Disable, account ? 'A poll is running' : null);
    if (!account) return skipped(BankAccountStatus.values.Disable);
    if (req.requireEnabled && account.status !== BankAccountStatus.values.Enable) return skipped(account.status);

    const timeZone = req.timeZone ?? (await deps.timeZone());
    const state = lease.record.data;
    const scope = recordScope(store, account, notifyTargets(account, await deps.chatOn()), started, timeZone);
    const outcome = await runPoll(deps, account, state, req, scope);
    const finished = clock.now();
    const ok = outcome.error === null;

    const change: RecordChange = {
      set: {
        last_refresh: finished,
        ...(ok ? { last_success: finished } : { last_error: outcome.error ?? 'Unknown error' }),
        ...(outcome.snapshot ? { subs: outcome.snapshot, subs_built: state.subs_version ?? 0 } : {}),
        ...(scope.tally.lastStatementAt ? { last_statement_at: scope.tally.lastStatementAt } : {}),
      },
      remove: ok ? ['last_error'] : [],
    };
    const figures: DayFigures = {
      polls: 1,
      ...(ok ? {} : { polls_failed: 1 }),
      ...tallyFigures(scope.tally),
      ...(req.lagMs !== undefined ? { [sketchAttr('l', sketchBucket(req.lagMs))]: 1 } : {}),
    };
    await addDayFigures(store, account.id, state, dayOf(finished, timeZone), figures, change);
    released = await store.releasePollLease(account.id, holder, change);

    // The account row changes only when what it shows changes: its status, or a new session.
    const patch: Partial<StoredBankAccount> = {};
    const next = ok ? BankAccountStatus.values.Enable : outcome.newStatus;
    // A sign-in that works again clears Incorrect / Locked / Wrong; Disable stays the operator's.
    if (next !== undefined && next !== account.status && account.status !== BankAccountStatus.values.Disable)
      patch.status = next;
    if (outcome.session)
      patch.session_enc = await encryptSecret(
        JSON.stringify(outcome.session),
        bankSecretContext(account.id, 'session'),
      );
    // Incidents (issue 45): a status turning unwell or well again, and the alert rules that start or
    // stop holding on this poll's figures, are follow-ups of the row's write (incidents.ts); a poll
    // that changes neither writes nothing more.
    const followUps = patch.status === undefined ? [] : statusIncidents(account, patch.status, finished, outcome.error);
    const rules =
      deps.rulesFor && account.status !== BankAccountStatus.values.Disable ? await deps.rulesFor(account) : [];
    if (rules.length || account.rules_firing?.length) {
      const figures = pollFigures({
        account,
        ok,
        snapshot: outcome.snapshot ?? state.subs,
        tally: scope.tally,
        lastStatementAt: scope.tally.lastStatementAt ?? state.last_statement_at,
        status: patch.status ?? account.status,
        now: finished,
        timeZone,
      });
      const fired = ruleIncidents(account, rules, figures, finished);
      if (fired.firing) {
        patch.rules_firing = fired.firing;
        followUps.push(...fired.followUps);
      }
    }
    if (followUps.length) await store.transitionAccount(account.id, patch, { followUps });
    else if (Object.keys(patch).length) await store.updateAccount(account.id, patch);
    if (ok && account.stale) await recoverIfStale(deps, { ...account, ...patch }, finished);
    return {
      account_id: account.id,
      polled: true,
      status: patch.status ?? account.status,
      subs: outcome.subs,
      new_statements: scope.tally.statements,
      new_balance_stats: scope.tally.balances,
      error: outcome.error,
    };
  } finally {
    if (!released) await store.releasePollLease(req.accountId, holder, {}).catch(() => undefined);
  }
}

/**
 * The day's figures on the poll record, written into the release's `change`: added to while the
 * record's day is today; at the first release of a new day the finished day's figures move to its
 * rollup record (one write a day) and today's start afresh.
 */
export async function addDayFigures(
  store: BankStore,
  accountId: number,
  state: PollStateData,
  today: string,
  figures: DayFigures,
  change: RecordChange,
): Promise<void> {
  const adds = Object.fromEntries(
    Object.entries(figures).filter(([, v]) => typeof v === 'number' && v !== 0),
  ) as Record<string, number>;
  if (state.day === today) {
    change.add = { ...change.add, ...adds };
    return;
  }
  const kept = dayAttributes(state);
  if (state.day && Object.keys(kept).length) await store.addDayFigures(state.day, accountId, kept);
  change.set = { ...change.set, ...adds, day: today };
  change.remove = [...(change.remove ?? []), ...Object.keys(kept).filter((k) => !(k in adds))];
}

const DAY_ATTRIBUTE = /^(polls|polls_failed|statements|balances|unreconciled|l\d+|h\d+)$/;

/** The day's figures kept on a poll record. */
export function dayAttributes(state: PollStateData): Record<string, number> {
  return Object.fromEntries(
    Object.entries(state).filter(([k, v]) => DAY_ATTRIBUTE.test(k) && typeof v === 'number'),
  ) as Record<string, number>;
}

interface RunOutcome {
  error: string | null;
  newStatus?: BankPollOutcome['status'];
  /** Set when a new login happened: kept for the next poll. */
  session?: BankSession;
  /** Set when the sub-accounts changed: written back with the release. */
  snapshot?: SubSnapshot;
  subs: number;
}

const isUsable = (sub: Pick<StoredSubAccount, 'status'>) => sub.status === SubAccountStatus.values.Available;

/** What the poll record keeps of a sub-account (entities.ts SubSnapshot). */
export function snapshotEntry(
  sub: Pick<StoredSubAccount, 'id' | 'available_balance' | 'status'>,
  reading: SubReading | undefined,
): SubSnapshot[string] {
  const read = !reading || reading.cursor === null || reading.pending_count > 0 ? SNAP_READ : 0;
  return [
    sub.id,
    sub.available_balance === null ? null : cents(sub.available_balance),
    read | (isUsable(sub) ? SNAP_USABLE : 0),
  ];
}

/** The sub-accounts as rows with their readings, and the snapshot they make. */
async function loadSubs(store: BankStore, accountId: number) {
  const rows = await store.subsOf(accountId);
  const readings = await store.readings(rows);
  const snapshot: SubSnapshot = Object.fromEntries(
    rows.map((s) => [s.no, snapshotEntry(s, readingOf(s, readings.get(s.id)).reading)]),
  );
  return { rows, readings, snapshot };
}

async function runPoll(
  deps: PollDeps,
  account: StoredBankAccount,
  state: PollStateData,
  req: PollRequest,
  scope: RecordScope,
): Promise<RunOutcome> {
  const { store } = deps;
  const driver = (deps.driverFor ?? defaultDriver)(account);
  const pwd = await decryptSecret(account.pwd_enc, bankSecretContext(account.id, 'pwd'));
  let kept: BankSession | undefined;
  if (account.session_enc) {
    kept = await decryptSecret(account.session_enc, bankSecretContext(account.id, 'session'))
      .then((s) => JSON.parse(s) as BankSession)
      .catch(() => undefined);
  }
  const ctx = bankDriverContext(account.bank_name, { user: account.user, pwd }, { timeoutMs: DRIVER_TIMEOUT_MS });
  // The snapshot holds while no sub-account was changed outside a poll since it was built.
  const fresh = state.subs !== undefined && state.subs_built === (state.subs_version ?? 0);
  let loaded = fresh ? undefined : await loadSubs(store, account.id);
  let snapshot = (fresh ? state.subs : loaded?.snapshot) as SubSnapshot;
  let changed = !fresh;
  let loggedIn = false;
  try {
    // The reads that decide what to do next run on the kept session; an expired one signs in again.
    const first = await withBankSession(driver, ctx, kept, async (session) => {
      const needList = req.mode === 'init' || Object.keys(snapshot).length === 0;
      const listed = needList ? await driver.listSubAccounts(ctx, session) : undefined;
      const balances = await driver.fetchBalances(ctx, session);
      return { listed, balances };
    });
    loggedIn = first.loggedIn;
    const session = first.session;
    let { listed } = first.value;
    const { balances } = first.value;
    // A number the balances show that we do not know: the bank opened a sub-account; list them.
    if (!listed && balances.some((b) => snapshot[b.no] === undefined))
      listed = await driver.listSubAccounts(ctx, session);
    if (listed) {
      await upsertSubs(store, account, loaded?.rows ?? (await store.subsOf(account.id)), listed, deps.clock.now());
      loaded = await loadSubs(store, account.id);
      snapshot = loaded.snapshot;
      changed = true;
    }

    const byNo = new Map(balances.map((b) => [b.no, b]));
    const wanted = Object.entries(snapshot).filter(([no, [id, balance, flags]]) => {
      if (!(flags & SNAP_USABLE)) return false;
      if (req.subId !== undefined && id !== req.subId) return false;
      const bank = byNo.get(no);
      const moved = bank !== undefined && balance !== null && cents(bank.available_balance) !== balance;
      return req.mode !== 'poll' || moved || (flags & SNAP_READ) !== 0;
    });
    if (wanted.length) {
      // Something to read: the sub-accounts' rows and readings, fresh.
      loaded ??= await loadSubs(store, account.id);
      const rows = new Map(loaded.rows.map((s) => [s.id, s]));
      const c: SubPollContext = { store, clock: deps.clock, driver, ctx, session, account, scope };
      for (const [no, [id]] of wanted) {
        const sub = rows.get(id);
        if (!sub || !isUsable(sub)) continue;
        snapshot[no] = await pollSub(c, sub, loaded.readings.get(id), byNo.get(no));
      }
      changed = true;
    }
    return {
      error: null,
      session: loggedIn ? session : undefined,
      snapshot: changed ? snapshot : undefined,
      subs: Object.keys(snapshot).length,
    };
  } catch (error) {
    const message = bankErrorMessage(error);
    logger.warn('bank poll failed', { account_id: account.id, error: message });
    return {
      error: message,
      newStatus: accountStatusFor(error),
      snapshot: changed ? snapshot : undefined,
      subs: Object.keys(snapshot).length,
    };
  } finally {
    // What was recorded before a failure is kept: its counts and deliveries go out all the same.
    await finishRecording(scope);
  }
}

async function upsertSubs(
  store: BankStore,
  account: StoredBankAccount,
  known: StoredSubAccount[],
  listed: BankSubAccount[],
  now: number,
): Promise<void> {
  for (const item of listed) {
    const existing = known.find((s) => s.no === item.no);
    const bankStatus = item.usable ? SubAccountStatus.values.Available : SubAccountStatus.values.Unavailable;
    if (!existing) {
      await store.createSub({
        bank_name: account.bank_name,
        account_id: account.id,
        no: item.no,
        available_balance: null,
        status: bankStatus,
        processing: false,
        last_refresh: now,
        detail: item.detail,
        created_at: now,
      });
      continue;
    }
    // Disable (99) is the operator's; otherwise the bank says whether it is usable.
    // Sub-accounts the bank no longer lists stay (their statements refer to them).
    const status = existing.status === SubAccountStatus.values.Disable ? existing.status : bankStatus;
    await store.updateSub(existing.id, { detail: item.detail, status, last_refresh: now });
  }
}

interface SubPollContext {
  store: BankStore;
  clock: Clock;
  driver: BankDriver;
  ctx: BankDriverContext;
  session: BankSession;
  account: StoredBankAccount;
  scope: RecordScope;
}

/**
 * Statements of one sub-account, then its balance; returns its snapshot entry. The first read of a
 * sub-account is its baseline: its lines are stored as No Notify (-2) history and its balance is
 * taken as the start.
 */
async function pollSub(
  c: SubPollContext,
  sub: StoredSubAccount,
  saved: SubReading | undefined,
  balance: BankBalance | undefined,
): Promise<SubSnapshot[string]> {
  const { reading, countAfter } = readingOf(sub, saved);
  const baseline = reading.cursor === null && sub.available_balance === null;
  const rec: RecordedSub = { id: sub.id, no: sub.no, available_balance: sub.available_balance, reading, countAfter };
  let current = balance;
  try {
    await readStatements(c, rec, baseline);
    // A transaction may land between the balance read and the statement read. The lines count
    // against a balance only when the balance read again after them is the same (nothing moved
    // meanwhile); otherwise the new lines are read against the new balance. At the baseline this
    // always runs (the history and the starting balance must agree); later only on a mismatch.
    const settle = async (needed: () => boolean) => {
      for (let attempt = 0; current && needed() && attempt < 3; attempt++) {
        const again = (await c.driver.fetchBalances(c.ctx, c.session)).find((b) => b.no === sub.no);
        if (!again || cents(again.available_balance) === cents(current.available_balance)) return;
        current = again;
        await readStatements(c, rec, baseline);
      }
    };
    if (baseline) {
      await settle(() => true);
      rec.available_balance = current?.available_balance ?? null;
    } else if (current && rec.available_balance !== null) {
      const pre = cents(rec.available_balance);
      await settle(() => cents((current as BankBalance).available_balance) - pre !== rec.reading.pending_cents);
      await recordBalance(c.scope, rec, current.available_balance);
    }
  } catch (error) {
    if (error instanceof BankSubAccountUnusableError) {
      const updated = await c.store.updateSub(sub.id, {
        status: SubAccountStatus.values.Unavailable,
        last_refresh: c.clock.now(),
      });
      return snapshotEntry(updated, reading);
    }
    throw error;
  }
  // A recorded balance change wrote the row already (its balance and last refresh, with the change).
  const [updated] = await Promise.all([
    rec.written ?? c.store.updateSub(sub.id, { available_balance: rec.available_balance, last_refresh: c.clock.now() }),
    c.store.saveReading(sub.id, { ...rec.reading, saved_at: c.scope.now }),
  ]);
  return snapshotEntry(updated, rec.reading);
}

async function readStatements(c: SubPollContext, rec: RecordedSub, baseline: boolean): Promise<void> {
  const page = await c.driver.fetchStatements(c.ctx, c.session, { no: rec.no, since: rec.reading.cursor ?? undefined });
  const keys = statementKeys(c.account.bank_name, page.lines);
  for (const [i, line] of page.lines.entries()) await recordStatement(c.scope, rec, line, keys[i] as string, baseline);
  rec.reading.cursor = page.cursor;
}
