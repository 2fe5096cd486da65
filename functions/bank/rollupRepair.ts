import { NotifyStatus } from '../../shared/enums.js';
import type { DayFigures } from './entities.js';
import { secondOfDay } from '../../shared/zoneClock.js';
import { dayOf } from './poll.js';
import type { BankRuntime } from './runtime.js';

// The repair of the bank's day rollups (issue 26 item 4), run with the data repair at start (and by
// dataRepair in the cloud): what the rows still kept can tell is counted again from them and set on
// the rollup records: statements (per hour too), balance changes and the unreconciled ones, and
// the final outcomes of deliveries. A poll leaves no row, so the polls, failed polls and lag of a
// day stay as the polls counted them; so do the figures of an account's current day, which its
// poll record holds until its next day begins.

const { Success, Failed } = NotifyStatus.values;

export async function rebuildBankRollups(deps: Pick<BankRuntime, 'store' | 'timeZone' | 'clock'>): Promise<{
  days: number;
}> {
  const { store } = deps;
  const timeZone = await deps.timeZone();
  const [{ statements, stats, notifications }, { states }] = await Promise.all([
    store.keptRows(),
    store.allPollStates(deps.clock.now()),
  ]);
  const days = new Map<string, Required<Pick<DayFigures, 'statements' | 'balances' | 'unreconciled'>> & DayFigures>();
  const figuresOf = (accountId: number, at: number) => {
    const key = `${dayOf(at, timeZone)}/${accountId}`;
    let f = days.get(key);
    if (!f) {
      f = { statements: 0, balances: 0, unreconciled: 0, wh_sent: 0, wh_failed: 0, tg_sent: 0, tg_failed: 0 };
      days.set(key, f);
    }
    return f;
  };
  for (const s of statements) {
    // A baseline's history lines were never new statements.
    if (s.notify_status === NotifyStatus.values.NoNotify) continue;
    const f = figuresOf(s.account_id, s.created_at);
    f.statements++;
    const hour = `h${Math.floor(secondOfDay(s.created_at, timeZone) / 3600)}` as const;
    f[hour] = (f[hour] ?? 0) + 1;
  }
  for (const b of stats) {
    const f = figuresOf(b.account_id, b.created_at);
    f.balances++;
    if (!b.reconciled) f.unreconciled++;
  }
  for (const n of notifications) {
    const f = figuresOf(n.account_id, n.created_at);
    if (n.notify_webhook === Success) f.wh_sent = (f.wh_sent ?? 0) + 1;
    if (n.notify_webhook === Failed) f.wh_failed = (f.wh_failed ?? 0) + 1;
    if (n.notify_tg === Success) f.tg_sent = (f.tg_sent ?? 0) + 1;
    if (n.notify_tg === Failed) f.tg_failed = (f.tg_failed ?? 0) + 1;
  }
  for (const [key, figures] of days) {
    const [day, id] = key.split('/') as [string, string];
    const current = states.get(Number(id))?.data.day;
    // The account's current day is on its poll record (its deliveries are on the rollup record).
    const kept =
      current === day
        ? {
            wh_sent: figures.wh_sent,
            wh_failed: figures.wh_failed,
            tg_sent: figures.tg_sent,
            tg_failed: figures.tg_failed,
          }
        : figures;
    await store.setDayFigures(day, Number(id), kept);
  }
  return { days: days.size };
}
