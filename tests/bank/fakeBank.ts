// An in-memory bank behind the BankDriver port, for poller tests that control time: accounts with
// sub-accounts, transactions that move balances and appear as statement lines, and the failure
// kinds of the sandbox portals (wrong password, locked, malformed data, a dropped statement,
// an unusable sub-account). It also counts what a test needs to see: polls, logins, and the most
// polls of one login running at once.

import type {
  BankDriver,
  BankDriverContext,
  BankSession,
  BankStatementLine,
} from '../../functions/bank/drivers/bankDriver.js';
import {
  BankAccountLockedError,
  BankSubAccountUnusableError,
  BankUnexpectedDataError,
  BankWrongCredentialsError,
  BankTransientError,
} from '../../functions/bank/drivers/errors.js';

interface FakeSub {
  no: string;
  balance: number;
  lines: BankStatementLine[];
  usable: boolean;
}

interface FakeLogin {
  pwd: string;
  locked: boolean;
  subs: FakeSub[];
}

export class FakeBank implements BankDriver {
  readonly name = 'fake-kbz';
  readonly bank = 1 as const;
  readonly logins = new Map<string, FakeLogin>();
  polls = 0;
  loginCount = 0;
  maxConcurrent = 0;
  private running = new Map<string, number>();
  /** Every call waits this long (ms of real time), so overlapping polls would show. */
  latencyMs = 0;
  malformed = false;
  down = false;
  private seq = 0;

  open(user: string, pwd: string, subs: { no: string; balance: number }[]): void {
    this.logins.set(user, { pwd, locked: false, subs: subs.map((s) => ({ ...s, lines: [], usable: true })) });
  }

  private sub(user: string, no: string): FakeSub {
    const sub = this.logins.get(user)?.subs.find((s) => s.no === no);
    if (!sub) throw new Error(`no sub ${user}/${no}`);
    return sub;
  }

  /** A transaction now: a statement line and a balance that moves with it. */
  transact(user: string, no: string, amount: number, inflow = true, ref?: string): void {
    const sub = this.sub(user, no);
    sub.balance += inflow ? amount : -amount;
    this.seq++;
    sub.lines.push({
      no,
      ref: ref ?? `R${this.seq}`,
      inflow,
      name: inflow ? 'U Aung' : 'Shop',
      remark: `t${this.seq}`,
      amount,
      date: '2026-11-23',
      time: '',
    });
  }

  /** The balance moves with no statement behind it. */
  drop(user: string, no: string, amount: number): void {
    this.sub(user, no).balance += amount;
  }

  setPassword(user: string, pwd: string): void {
    (this.logins.get(user) as FakeLogin).pwd = pwd;
  }
  lock(user: string): void {
    (this.logins.get(user) as FakeLogin).locked = true;
  }
  makeUnusable(user: string, no: string): void {
    this.sub(user, no).usable = false;
  }

  private async call<T>(ctx: BankDriverContext, work: (login: FakeLogin) => T): Promise<T> {
    const user = ctx.credentials.user;
    const now = (this.running.get(user) ?? 0) + 1;
    this.running.set(user, now);
    this.maxConcurrent = Math.max(this.maxConcurrent, now);
    try {
      if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
      if (this.down) throw new BankTransientError('portal answered 500', { statusCode: 500 });
      if (this.malformed) throw new BankUnexpectedDataError('balances', 'not JSON');
      const login = this.logins.get(user);
      if (!login || login.pwd !== ctx.credentials.pwd) throw new BankWrongCredentialsError('wrong password');
      if (login.locked) throw new BankAccountLockedError('too many attempts');
      return work(login);
    } finally {
      this.running.set(user, (this.running.get(user) ?? 1) - 1);
    }
  }

  async login(ctx: BankDriverContext): Promise<BankSession> {
    return this.call(ctx, () => {
      this.loginCount++;
      return { bank: 1, user: ctx.credentials.user, token: `s${this.loginCount}` };
    });
  }

  async listSubAccounts(ctx: BankDriverContext) {
    return this.call(ctx, (login) =>
      login.subs.map((s) => ({
        no: s.no,
        available_balance: s.balance,
        usable: s.usable,
        detail: {
          customer_name: 'Daw Hla',
          account_branch: 'Yangon',
          account_type: 'Savings',
          account_opening_date: '2020-01-02',
          product_name: 'Saving',
          balances: [{ type: 'available', amount: s.balance, currency: 'MMK' }],
        },
      })),
    );
  }

  async fetchStatements(ctx: BankDriverContext, _session: BankSession, query: { no: string; since?: string }) {
    return this.call(ctx, (login) => {
      const sub = login.subs.find((s) => s.no === query.no);
      if (!sub) throw new BankUnexpectedDataError('statements', 'unknown account');
      if (!sub.usable) throw new BankSubAccountUnusableError(sub.no, 'dormant');
      // Pages overlap on purpose: the whole history every time, like a date-only filter.
      return { lines: [...sub.lines], cursor: String(sub.lines.length) };
    });
  }

  async fetchBalances(ctx: BankDriverContext) {
    this.polls++;
    return this.call(ctx, (login) => login.subs.map((s) => ({ no: s.no, available_balance: s.balance })));
  }
}

/** A clock tests move by hand; `sleep` moves it instead of waiting. */
export function testClock(start: number) {
  const clock = {
    t: start,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
    set(ms: number) {
      clock.t = ms;
    },
  };
  return clock;
}
