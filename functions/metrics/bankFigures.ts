// The bank families of /metrics per bank (the `bank` label): the Bank panel's figures
// (functions/bank/dashboard.ts) split by each account's bank. From the same kept records: the
// accounts (their bank, status and stale flag: one list read), the day rollups of the window and the
// poll records holding each account's current day. The dashboard sums the accounts together, so the
// sums are redone here per bank, with its rules: a window of the last 24 h in the configured zone's
// days, the first day's statements before the window's hour left out, lag buckets merged into one
// sketch per bank.
import { emptyListQuery } from '../../shared/listQuery.js';
import { Bank, BankAccountStatus } from '../../shared/enums.js';
import { secondOfDay } from '../../shared/zoneClock.js';
import type { DayFigures } from '../bank/entities.js';
import { dayOf } from '../bank/poll.js';
import type { BankRuntime } from '../bank/runtime.js';
import { sketchQuantile } from '../lib/durationSketch.js';

export interface BankFiguresOf {
  bank: number;
  accounts_by_status: { status: number; count: number }[];
  stale: number;
  poll_lag_p95_ms: number | null;
  polls: number;
  polls_failed: number;
  statements: number;
  unreconciled: number;
}

const HOUR_MS = 3_600_000;
/** Rows a page of the accounts' list: the list's "All" answers at most 1000 (PAGE_ALL_CAP). */
const ACCOUNT_PAGE = 1000;

/** `l12` → 12, `h8` → 8 for the letter asked; -1 for any other attribute. */
function indexOf(attr: string, letter: 'l' | 'h'): number {
  return attr[0] === letter && /^[lh]\d{1,3}$/.test(attr) ? Number(attr.slice(1)) : -1;
}

export async function bankFiguresByBank(
  runtime: BankRuntime,
  hours: number,
): Promise<{ banks: BankFiguresOf[]; rcu: number }> {
  const to = runtime.clock.now();
  const from = to - hours * HOUR_MS;
  const timeZone = await runtime.timeZone();
  const days = new Set<string>();
  for (let t = from; t < to; t += HOUR_MS) days.add(dayOf(t, timeZone));
  days.add(dayOf(to, timeZone));
  const window = [...days].sort();
  const firstHour = Math.floor(secondOfDay(from, timeZone) / 3600);
  const cutDay = window.length > 1 ? window[0] : undefined;

  let rcu = 0;
  const bankOf = new Map<number, number>();
  const per = new Map<number, BankFiguresOf & { lag: Map<number, number>; statuses: Map<number, number> }>();
  for (const { value } of Bank.options)
    per.set(value, {
      bank: value,
      accounts_by_status: [],
      stale: 0,
      poll_lag_p95_ms: null,
      polls: 0,
      polls_failed: 0,
      statements: 0,
      unreconciled: 0,
      lag: new Map(),
      statuses: new Map(BankAccountStatus.options.map(({ value: s }) => [s, 0])),
    });

  const [rolled, states] = await Promise.all([
    Promise.all(window.map((day) => runtime.store.dayFigures(day).then((r) => ({ day, ...r })))),
    runtime.store.allPollStates(to),
    (async () => {
      for (let page = 1; ; page++) {
        const out = await runtime.store.listAccounts(emptyListQuery({ page, page_size: ACCOUNT_PAGE }));
        rcu += out.consumed_rcu ?? 0;
        for (const a of out.result) {
          bankOf.set(a.id, a.bank_name);
          const b = per.get(a.bank_name);
          if (!b) continue;
          b.statuses.set(a.status, (b.statuses.get(a.status) ?? 0) + 1);
          if (a.stale) b.stale++;
        }
        if (out.result.length < ACCOUNT_PAGE) return;
      }
    })(),
  ]);
  rcu += states.rcu;

  const add = (day: string, account: number, figures: DayFigures) => {
    const b = per.get(bankOf.get(account) ?? -1);
    if (!b) return; // an account gone since its figures were kept
    for (const [attr, n] of Object.entries(figures)) {
      if (typeof n !== 'number') continue;
      const lag = indexOf(attr, 'l');
      const hour = indexOf(attr, 'h');
      if (lag >= 0) b.lag.set(lag, (b.lag.get(lag) ?? 0) + n);
      else if (hour >= 0) {
        if (!(day === cutDay && hour < firstHour)) b.statements += n;
      } else if (attr === 'polls' || attr === 'polls_failed' || attr === 'unreconciled') b[attr] += n;
    }
  };
  for (const { day, figures, rcu: read } of rolled) {
    rcu += read;
    for (const [account, f] of figures) add(day, account, f);
  }
  for (const [account, state] of states.states)
    if (state.data.day && window.includes(state.data.day)) add(state.data.day, account, state.data);

  const banks = [...per.values()].map(({ lag, statuses, ...b }) => ({
    ...b,
    accounts_by_status: [...statuses].map(([status, count]) => ({ status, count })),
    poll_lag_p95_ms: sketchQuantile(lag, 0.95),
  }));
  return { banks, rcu };
}
