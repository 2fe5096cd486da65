import { declaredRow } from '../../shared/listFields.js';
import { balanceStatListFields } from '../../shared/schemas/bank.js';
import type { BankDashboard, DeliveryDashboard } from '../../shared/schemas/dashboard.js';
import { sketchQuantile } from '../lib/durationSketch.js';
import type { DayFigures } from './entities.js';
import { secondOfDay } from '../../shared/zoneClock.js';
import { dayOf } from './poll.js';
import type { BankRuntime } from './runtime.js';

// The dashboard's bank and delivery figures (issue 26 items 4, 5), from the daily rollups per
// account: the poll records hold each account's current day (moved by every poll's release), the
// rollup records the days before and the deliveries. Reads are a few Queries whatever the number
// of polls and statements behind them; `rcu` is what they consumed (the x-consumed-rcu header).

const HOUR_MS = 3_600_000;

/** The days (configured zone) the window [from, to] touches, oldest first. */
function daysOf(from: number, to: number, timeZone: string): string[] {
  const days = new Set<string>();
  for (let t = from; t < to; t += HOUR_MS) days.add(dayOf(t, timeZone));
  days.add(dayOf(to, timeZone));
  return [...days].sort();
}

interface Window {
  hours: number;
  from: number;
  to: number;
  days: string[];
}

/** Every account's figures of every day of the window: rolled days, and the poll records' current days. */
async function figuresOf(
  deps: BankRuntime,
  window: Window,
  withPollRecords: boolean,
  fields?: readonly (keyof DayFigures)[],
) {
  const [rolled, states] = await Promise.all([
    Promise.all(window.days.map((day) => deps.store.dayFigures(day, fields).then((r) => ({ day, ...r })))),
    withPollRecords ? deps.store.allPollStates(window.to) : undefined,
  ]);
  const out: { day: string; account: number; figures: DayFigures }[] = [];
  let rcu = states?.rcu ?? 0;
  for (const { day, figures, rcu: read } of rolled) {
    rcu += read;
    for (const [account, f] of figures) out.push({ day, account, figures: f });
  }
  for (const [account, state] of states?.states ?? []) {
    if (state.data.day && window.days.includes(state.data.day))
      out.push({ day: state.data.day, account, figures: state.data });
  }
  return { out, rcu, states: states?.states };
}

const L = 'l'.charCodeAt(0);
const H = 'h'.charCodeAt(0);
/** `l12`, `h8`: a lag bucket or an hour, by the digits after the letter (-1 for any other name). */
function indexOf(attr: string): number {
  if (attr.length < 2 || attr.length > 4) return -1;
  let n = 0;
  for (let i = 1; i < attr.length; i++) {
    const d = attr.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

const firstHourOf = (window: Window & { timeZone: string }) =>
  Math.floor(secondOfDay(window.from, window.timeZone) / 3600);

/**
 * Every record's numbers summed in one pass over its attributes (~50 each; two records per account
 * and day at most): named sums, the lag buckets (`l<n>`) merged into one sketch, and statements per
 * hour (`h<n>`), the hours of `cutDay` before `firstHour` left out.
 */
function summed(out: { day: string; figures: DayFigures }[], cutDay: string | undefined, firstHour: number) {
  const sums: Record<string, number> = {};
  const lag = new Map<number, number>();
  const perHour = new Map<string, { day: string; hour: number; count: number }>();
  for (const { day, figures } of out) {
    const values = figures as Record<string, unknown>;
    for (const attr in values) {
      const n = values[attr];
      if (typeof n !== 'number') continue;
      const first = attr.charCodeAt(0);
      const index = first === L || first === H ? indexOf(attr) : -1;
      if (index < 0) sums[attr] = (sums[attr] ?? 0) + n;
      else if (first === L) lag.set(index, (lag.get(index) ?? 0) + n);
      else if (!(day === cutDay && index < firstHour)) {
        const key = `${day} ${index}`;
        const slot = perHour.get(key);
        if (slot) slot.count += n;
        else perHour.set(key, { day, hour: index, count: n });
      }
    }
  }
  const per_hour = [...perHour.values()].sort((a, b) => a.day.localeCompare(b.day) || a.hour - b.hour);
  return { sums, lag, per_hour };
}

async function windowOf(deps: BankRuntime, hours: number): Promise<Window & { timeZone: string }> {
  const to = deps.clock.now();
  const from = to - hours * HOUR_MS;
  const timeZone = await deps.timeZone();
  return { hours, from, to, days: daysOf(from, to, timeZone), timeZone };
}

export async function bankDashboard(deps: BankRuntime, hours: number): Promise<{ reply: BankDashboard; rcu: number }> {
  const window = await windowOf(deps, hours);
  const [{ out, rcu, states }, statuses, stale, unreconciled] = await Promise.all([
    figuresOf(deps, window, true),
    deps.store.accountsByStatus(),
    deps.store.staleAccounts(),
    deps.store.latestUnreconciled(),
  ]);
  // Hours of the window's first day before its start are left out.
  const { sums, lag, per_hour } = summed(out, window.days.length > 1 ? window.days[0] : undefined, firstHourOf(window));
  const sum = (field: keyof DayFigures) => sums[field] ?? 0;
  const latest = unreconciled.stat && unreconciled.stat.created_at >= window.from ? unreconciled.stat : undefined;
  const reply: BankDashboard = {
    hours,
    from: window.from,
    to: window.to,
    days: window.days,
    accounts_by_status: statuses.counts,
    stale: stale.ids,
    unreconciled: {
      count: sum('unreconciled'),
      latest: latest ? { ...declaredRow(balanceStatListFields, latest), sub_account: { no: latest.sub_no } } : null,
    },
    poll_lag_p95_ms: sketchQuantile(lag, 0.95),
    polls: sum('polls'),
    polls_failed: sum('polls_failed'),
    statements: { total: per_hour.reduce((a, h) => a + h.count, 0), per_hour },
    last_statement_at: [...(states ?? [])]
      .filter(([, s]) => typeof s.data.last_statement_at === 'number')
      .map(([account_id, s]) => ({ account_id, at: s.data.last_statement_at as number }))
      .sort((a, b) => a.account_id - b.account_id),
  };
  return { reply, rcu: rcu + statuses.rcu + stale.rcu + unreconciled.rcu };
}

const DELIVERY_FIGURES = ['wh_sent', 'wh_failed', 'tg_sent', 'tg_failed'] as const;

export async function deliveryDashboard(
  deps: BankRuntime,
  hours: number,
): Promise<{ reply: DeliveryDashboard; rcu: number }> {
  const window = await windowOf(deps, hours);
  // Deliveries add to the rollup records directly: the poll records hold none.
  // Only their four numbers come back: the records' lag buckets and hours are what the Bank panel reads.
  const [{ out, rcu }, paused] = await Promise.all([
    figuresOf(deps, window, false, DELIVERY_FIGURES),
    deps.store.pausedAccounts(),
  ]);
  const sum = (field: keyof DayFigures) => out.reduce((a, { figures }) => a + Number(figures[field] ?? 0), 0);
  const sent = sum('wh_sent');
  const failed = sum('wh_failed');
  return {
    reply: {
      hours,
      from: window.from,
      to: window.to,
      days: window.days,
      webhook: {
        sent,
        failed,
        success_rate: sent + failed ? sent / (sent + failed) : null,
        paused_endpoints: paused,
      },
      telegram: { sent: sum('tg_sent'), failed: sum('tg_failed') },
    },
    rcu: rcu + 0.5,
  };
}
