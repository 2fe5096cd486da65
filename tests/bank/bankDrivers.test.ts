// The KBZ and AYA drivers against the sandbox portals: what the poller gets back for every way a
// bank answers, and the account / sub-account status each failure sets.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BankAccountStatus, SubAccountStatus } from '../../shared/enums';
import { ayaDriver } from '../../functions/bank/drivers/ayaDriver';
import type { BankDriverContext, BankSession, BankStatementLine } from '../../functions/bank/drivers/bankDriver';
import { driverForBank } from '../../functions/bank/drivers/bankDriverRegistry';
import { bankPortalFor } from '../../functions/bank/drivers/bankPortal';
import {
  BankAccountLockedError,
  BankSessionExpiredError,
  BankSubAccountUnusableError,
  BankTransientError,
  BankUnexpectedDataError,
  BankWrongCredentialsError,
  accountStatusFor,
  subAccountStatusFor,
} from '../../functions/bank/drivers/errors';
import { kbzDriver } from '../../functions/bank/drivers/kbzDriver';
import { myanmarParts } from '../../functions/bank/drivers/portalShapes';
import { withBankSession } from '../../functions/bank/drivers/withBankSession';
import { SANDBOX_BANK_PASSWORD, type SandboxBankHandle, startSandboxBank } from '../../scripts/sandbox/bank/server';

let sandbox: SandboxBankHandle;
let allowed: string[];

beforeAll(async () => {
  // No feed: every statement in these tests is one the test added.
  sandbox = await startSandboxBank({ port: 0, feedEveryMs: 0, slowMs: 2_000 });
  allowed = [new URL(sandbox.url).host];
});
afterAll(() => sandbox?.stop());
beforeEach(() => control('reset', {}));

async function control(action: string, body: Record<string, unknown>) {
  const res = await fetch(`${sandbox.url}/__sandbox/bank/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`control ${action}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const BANKS = [
  { slug: 'kbz', driver: kbzDriver, bankValue: 1 },
  { slug: 'aya', driver: ayaDriver, bankValue: 2 },
] as const;

const KBZ_DETAIL = [
  'account_branch',
  'account_opening_date',
  'account_type',
  'balances',
  'customer_name',
  'product_name',
].sort();
const AYA_DETAIL = [
  'available_balance',
  'branch',
  'currency',
  'current_balance',
  'hold_amount',
  'interest_rate',
  'last_transaction_date',
  'name',
  'open_date',
].sort();

describe.each(BANKS)('$slug driver', ({ slug, driver, bankValue }) => {
  let n = 0;
  // A fresh login per test: the sandbox creates it on first use.
  const newUser = () => `${slug}.user${++n}`;
  const ctxFor = (user: string, pwd = SANDBOX_BANK_PASSWORD, timeoutMs = 5_000): BankDriverContext => ({
    portal: { url: slug === 'kbz' ? sandbox.kbzUrl : sandbox.ayaUrl },
    credentials: { user, pwd },
    timeoutMs,
    allowedPrivateHosts: allowed,
  });
  const statusOf = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'the call should have failed').toBeInstanceOf(Error);
    return { err: err as Error, account: accountStatusFor(err), sub: subAccountStatusFor(err) };
  };

  it('is the registry default for its bank; its portal is BANK_PORTAL_<BANK>, else the sandbox', () => {
    expect(driverForBank(bankValue, { url: 'https://bank.example' })).toBe(driver);
    expect(bankPortalFor(bankValue, { SANDBOX_BANK_URL: `${sandbox.url}/` })).toEqual({
      url: slug === 'kbz' ? sandbox.kbzUrl : sandbox.ayaUrl,
    });
    const own = slug === 'kbz' ? 'BANK_PORTAL_KBZ' : 'BANK_PORTAL_AYA';
    expect(bankPortalFor(bankValue, { [own]: 'https://ib.example.com/', SANDBOX_BANK_URL: sandbox.url })).toEqual({
      url: 'https://ib.example.com',
    });
  });

  it('signs in and lists the sub-accounts with the detail fields of its bank', async () => {
    const user = newUser();
    const ctx = ctxFor(user);
    const session = await driver.login(ctx);
    expect(session).toMatchObject({ bank: bankValue, user });
    expect(session.token).not.toBe('');
    const subs = await driver.listSubAccounts(ctx, session);
    expect(subs.length).toBeGreaterThanOrEqual(2);
    const state = await control('account', { bank: slug, user });
    const sandboxSubs = state.subs as { no: string; balance: number }[];
    expect(subs.map((s) => s.no)).toEqual(sandboxSubs.map((s) => s.no));
    for (const sub of subs) {
      expect(sub.usable).toBe(true);
      expect(Object.keys(sub.detail).sort()).toEqual(slug === 'kbz' ? KBZ_DETAIL : AYA_DETAIL);
    }
    const first = subs[0];
    if (slug === 'kbz') {
      const d = first.detail as import('../../functions/bank/drivers/bankDriver').KbzSubAccountDetail;
      expect(d.account_opening_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.balances.find((b) => b.type === 'AVAILABLE')?.amount).toBe(sandboxSubs[0].balance);
      expect(d.customer_name).toBe(state.holder);
      expect(first.available_balance).toBe(sandboxSubs[0].balance);
    } else {
      const d = first.detail as import('../../functions/bank/drivers/bankDriver').AyaSubAccountDetail;
      expect(d.open_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.last_transaction_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(d.current_balance).toBe(sandboxSubs[0].balance);
      // The first AYA sub-account holds money: available = current - hold.
      expect(d.available_balance).toBeCloseTo(d.current_balance - d.hold_amount, 2);
      expect(first.available_balance).toBe(d.available_balance);
      expect(d.currency).toBe('MMK');
    }
  });

  it('fetches statements since a cursor, in its bank’s terms, with balances that move with them', async () => {
    const user = newUser();
    const ctx = ctxFor(user);
    const session = await driver.login(ctx);
    const [sub] = await driver.listSubAccounts(ctx, session);
    const first = await driver.fetchStatements(ctx, session, { no: sub.no });
    const before = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no);
    expect(before).toBeDefined();

    const added = await control('transaction', {
      bank: slug,
      user,
      no: sub.no,
      amount: 1234.5,
      inflow: true,
      name: 'U Kyaw Min',
      remark: 'Invoice 77',
    });
    await control('transaction', { bank: slug, user, no: sub.no, amount: 200, inflow: false, remark: 'Fee' });
    const next = await driver.fetchStatements(ctx, session, { no: sub.no, since: first.cursor });
    const inflow = next.lines.find((l) => l.remark === 'Invoice 77');
    const outflow = next.lines.find((l) => l.remark === 'Fee');
    const at = myanmarParts(added.at as number);
    expect(inflow).toMatchObject({ no: sub.no, inflow: true, amount: 1234.5, date: at.date });
    expect(outflow).toMatchObject({ no: sub.no, inflow: false, amount: 200 });
    if (slug === 'kbz') {
      // KBZ: date only, the sender, and KBZ's own reference.
      expect(inflow?.time).toBe('');
      expect(inflow?.name).toBe('U KYAW MIN');
      expect(inflow?.ref).toMatch(/^FT\d+$/);
      expect(next.cursor).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    } else {
      // AYA: date and time, no sender, no reference (the poller keys it by its fields).
      expect(inflow?.time).toBe(at.time);
      expect(inflow?.name).toBe('');
      expect(inflow?.ref).toBeUndefined();
      expect(next.cursor).toBe(`${at.date}T${outflow?.time}`);
    }
    expect(next.cursor >= first.cursor).toBe(true);

    const after = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no);
    expect(after?.available_balance).toBeCloseTo((before?.available_balance ?? 0) + 1234.5 - 200, 2);
    expect(after?.current_balance).toBeCloseTo((before?.current_balance ?? 0) + 1234.5 - 200, 2);

    // Nothing new: the cursor does not go back and the lines seen are at most seen again.
    const again = await driver.fetchStatements(ctx, session, { no: sub.no, since: next.cursor });
    expect(again.cursor >= next.cursor).toBe(true);
    expect(again.lines.every((l) => next.lines.some((s) => JSON.stringify(s) === JSON.stringify(l)))).toBe(true);
  });

  it('a dropped statement moves the balance with no statement behind it', async () => {
    const user = newUser();
    const ctx = ctxFor(user);
    const session = await driver.login(ctx);
    const [sub] = await driver.listSubAccounts(ctx, session);
    const page = await driver.fetchStatements(ctx, session, { no: sub.no });
    const before = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no);
    await control('drop-statement', { bank: slug, user, no: sub.no, amount: 5000, inflow: true });
    const after = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no);
    expect(after?.available_balance).toBeCloseTo((before?.available_balance ?? 0) + 5000, 2);
    const next = await driver.fetchStatements(ctx, session, { no: sub.no, since: page.cursor });
    expect(next.lines.some((l) => l.amount === 5000)).toBe(false);
  });

  it('wrong credentials → 2 Incorrect, and after a password change the old one is refused too', async () => {
    const user = newUser();
    const wrong = await statusOf(driver.login(ctxFor(user, 'not-the-password')));
    expect(wrong.err).toBeInstanceOf(BankWrongCredentialsError);
    expect(wrong.account).toBe(BankAccountStatus.values.Incorrect);
    expect(wrong.err.message).not.toContain('not-the-password');

    const session = await driver.login(ctxFor(user));
    await control('password', { bank: slug, user, password: 'changed-at-the-bank' });
    // The bank ends the session of a login whose password changed; signing in again is refused.
    const run = await statusOf(
      withBankSession(driver, ctxFor(user), session, (s) => driver.fetchBalances(ctxFor(user), s)),
    );
    expect(run.account).toBe(BankAccountStatus.values.Incorrect);
    await expect(driver.login(ctxFor(user, 'changed-at-the-bank'))).resolves.toMatchObject({ user });
  });

  it('a locked login → 3 Locked (by the lock control and by a locked… user)', async () => {
    const user = newUser();
    await control('lock', { bank: slug, user });
    const locked = await statusOf(driver.login(ctxFor(user)));
    expect(locked.err).toBeInstanceOf(BankAccountLockedError);
    expect(locked.account).toBe(BankAccountStatus.values.Locked);
    expect((await statusOf(driver.login(ctxFor('locked.teller')))).account).toBe(BankAccountStatus.values.Locked);
    await control('lock', { bank: slug, user, locked: false });
    await expect(driver.login(ctxFor(user))).resolves.toMatchObject({ user });
  });

  it.each(['login', 'accounts', 'statements', 'balances'] as const)('malformed data at %s → 9 Wrong', async (call) => {
    const user = newUser();
    const ctx = ctxFor(user);
    const session = call === 'login' ? undefined : await driver.login(ctx);
    const subs = session ? await driver.listSubAccounts(ctx, session) : [];
    await control('behaviour', { failure: 'malformed', bank: slug, user, call, times: 1 });
    const attempt =
      call === 'login'
        ? driver.login(ctx)
        : call === 'accounts'
          ? driver.listSubAccounts(ctx, session as BankSession)
          : call === 'statements'
            ? driver.fetchStatements(ctx, session as BankSession, { no: subs[0].no })
            : driver.fetchBalances(ctx, session as BankSession);
    const r = await statusOf(attempt);
    expect(r.err).toBeInstanceOf(BankUnexpectedDataError);
    expect(r.account).toBe(BankAccountStatus.values.Wrong);
    expect(r.err.message).toMatch(/^Unexpected answer from (GET|POST) \//);
  });

  it('HTTP 500 and a slow bank are transient: no status change, a readable reason', async () => {
    const user = newUser();
    const ctx = ctxFor(user, SANDBOX_BANK_PASSWORD, 400);
    const session = await driver.login(ctx);
    await control('behaviour', { failure: 'http500', bank: slug, user, call: 'balances', times: 1 });
    const e500 = await statusOf(driver.fetchBalances(ctx, session));
    expect(e500.err).toBeInstanceOf(BankTransientError);
    expect(e500.err.message).toMatch(/^Bank answered HTTP 500 to GET \//);
    expect(e500.account).toBeUndefined();

    await control('behaviour', { failure: 'slow', bank: slug, user, call: 'accounts', delayMs: 1_500, times: 1 });
    const slow = await statusOf(driver.listSubAccounts(ctx, session));
    expect(slow.err).toBeInstanceOf(BankTransientError);
    expect(slow.err.message).toMatch(/^Timed out after 400 ms at GET \//);
    expect(slow.account).toBeUndefined();

    await control('behaviour', { failure: 'http500', bank: slug, user, call: 'login', times: 1 });
    expect((await statusOf(driver.login(ctx))).account).toBeUndefined();
    // Afterwards the bank answers again.
    await expect(driver.fetchBalances(ctx, session)).resolves.not.toHaveLength(0);
  });

  it('a sub-account the bank reports unusable → sub status 2 Unavailable, the account unchanged', async () => {
    const user = newUser();
    const ctx = ctxFor(user);
    const session = await driver.login(ctx);
    const [, second] = await driver.listSubAccounts(ctx, session);
    await control('sub-account', { bank: slug, user, no: second.no, usable: false, reason: 'Account is dormant' });
    const listed = (await driver.listSubAccounts(ctx, session)).find((s) => s.no === second.no);
    expect(listed).toMatchObject({ usable: false });
    expect(listed?.unusable_reason).toBeTruthy();
    const r = await statusOf(driver.fetchStatements(ctx, session, { no: second.no }));
    expect(r.err).toBeInstanceOf(BankSubAccountUnusableError);
    expect((r.err as BankSubAccountUnusableError).no).toBe(second.no);
    expect(r.sub).toBe(SubAccountStatus.values.Unavailable);
    expect(r.account).toBeUndefined();
  });

  it('reuses the kept session between polls, and signs in again when it expired', async () => {
    const user = newUser();
    const ctx = ctxFor(user);
    const first = await withBankSession(driver, ctx, undefined, (s) => driver.fetchBalances(ctx, s));
    expect(first.loggedIn).toBe(true);

    // Reuse: a poll on the kept session never signs in (a login now would fail).
    await control('behaviour', { failure: 'http500', bank: slug, user, call: 'login' });
    const reused = await withBankSession(driver, ctx, first.session, (s) => driver.fetchBalances(ctx, s));
    expect(reused.loggedIn).toBe(false);
    expect(reused.session).toBe(first.session);
    expect(reused.value).toEqual(first.value);
    await fetch(`${sandbox.url}/__sandbox/bank/behaviour`, { method: 'DELETE' });

    // Expired at the bank: the driver says so, and withBankSession signs in again.
    await control('expire-session', { bank: slug, user });
    const expired = await statusOf(driver.fetchBalances(ctx, first.session));
    expect(expired.err).toBeInstanceOf(BankSessionExpiredError);
    expect(expired.account).toBeUndefined();
    const renewed = await withBankSession(driver, ctx, first.session, (s) => driver.listSubAccounts(ctx, s));
    expect(renewed.loggedIn).toBe(true);
    expect(renewed.session.token).not.toBe(first.session.token);
    expect(renewed.value.length).toBeGreaterThanOrEqual(2);

    // A session of another user, or past its announced end, is not tried at all.
    const other = await withBankSession(driver, ctxFor(newUser()), renewed.session, async (s) => s);
    expect(other.loggedIn).toBe(true);
    const stale = { ...renewed.session, expires_at: Date.now() - 1 };
    expect((await withBankSession(driver, ctx, stale, async (s) => s)).loggedIn).toBe(true);
  });

  it('every call passes the outbound URL guard: a portal on a private address is refused', async () => {
    const ctx = { ...ctxFor(newUser()), allowedPrivateHosts: [] };
    const r = await statusOf(driver.login(ctx));
    expect(r.err).toBeInstanceOf(BankTransientError);
    expect(r.err.message).toMatch(/^Refused to call the bank: 127\.0\.0\.1 is a .*loopback/i);
    const meta = await statusOf(driver.login({ ...ctx, portal: { url: 'http://169.254.169.254/latest' } }));
    expect(meta.err.message).toMatch(/^Refused to call the bank: 169\.254\.169\.254/);
  });
});

describe('sandbox feed', () => {
  it('produces inflows and outflows over time, and the balance moves with exactly those statements', async () => {
    const fed = await startSandboxBank({ port: 0, feedEveryMs: 100 });
    try {
      const directions = new Set<boolean>();
      for (const { slug, driver } of BANKS) {
        const ctx: BankDriverContext = {
          portal: { url: slug === 'kbz' ? fed.kbzUrl : fed.ayaUrl },
          credentials: { user: `feed.${slug}`, pwd: SANDBOX_BANK_PASSWORD },
          timeoutMs: 5_000,
          allowedPrivateHosts: [new URL(fed.url).host],
        };
        const session = await driver.login(ctx);
        const [sub] = await driver.listSubAccounts(ctx, session);
        // A consistent view: the whole history (the first fetch reads 7 days back) between two equal
        // balance reads, so no line was fed in the middle. Balance − signed sum = the opening balance.
        const snapshot = async () => {
          for (let i = 0; i < 20; i++) {
            const b1 = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no)?.available_balance;
            const { lines } = await driver.fetchStatements(ctx, session, { no: sub.no });
            const b2 = (await driver.fetchBalances(ctx, session)).find((b) => b.no === sub.no)?.available_balance;
            if (b1 !== undefined && b1 === b2) return { balance: b1, lines };
          }
          throw new Error('the feed never paused');
        };
        const opening = (v: { balance: number; lines: BankStatementLine[] }) =>
          v.balance - v.lines.reduce((sum, l) => sum + (l.inflow ? l.amount : -l.amount), 0);
        const before = await snapshot();
        await new Promise((r) => setTimeout(r, 2_500));
        const after = await snapshot();
        expect(after.lines.length - before.lines.length, `${slug}: the feed produced statements`).toBeGreaterThan(3);
        expect(after.balance).not.toBe(before.balance);
        expect(opening(after)).toBeCloseTo(opening(before), 2);
        for (const l of after.lines) directions.add(l.inflow);
      }
      expect([...directions].sort()).toEqual([false, true]);
    } finally {
      await fed.stop();
    }
  });
});

describe('sandbox controls', () => {
  it('refuse a bad request with the reason', async () => {
    const post = (action: string, body: unknown) =>
      fetch(`${sandbox.url}/__sandbox/bank/${action}`, { method: 'POST', body: JSON.stringify(body) });
    const cases: [string, unknown, RegExp][] = [
      ['transaction', { bank: 'kbz', user: 'x', amount: -5 }, /amount must be a positive number/],
      ['transaction', { bank: 'hsbc', user: 'x', amount: 5 }, /bank must be kbz \(1\) or aya \(2\)/],
      ['transaction', { bank: 'aya', user: 'x', no: 'nope', amount: 5 }, /no sub-account nope/],
      ['behaviour', { failure: 'explode' }, /failure must be one of none, slow, http500, malformed/],
      ['password', { bank: 1, user: 'x' }, /password is required/],
    ];
    for (const [action, body, msg] of cases) {
      const res = await post(action, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(msg);
    }
  });
});
