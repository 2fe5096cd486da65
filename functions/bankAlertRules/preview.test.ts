import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../shared/listQuery.js';
import type { BankFigures, FigureAccount, FigureBalanceStat, FigureStatement } from './bankFigures.js';
import { AlertRuleExpressionInvalidError } from './errors.js';
import { PREVIEW_ACCOUNTS_CAP, previewAlertRule } from './preview.js';

// The preview replays stored figures on an in-memory bank: episodes, not instants; the balance
// rebuilt from balance changes; no_statement_for growing between polls; its read bound.

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-30T12:00:00Z');
const ago = (h: number) => NOW - h * HOUR;

function fakeBank(
  accounts: FigureAccount[],
  rows: {
    statements?: (FigureStatement & { account_id: number })[];
    stats?: (FigureBalanceStat & { account_id: number })[];
  },
  subs: { id: number; account_id: number; status: number; available_balance: number }[],
): BankFigures & { reads: string[] } {
  const reads: string[] = [];
  const list = <T extends { account_id: number; created_at: number }>(all: T[], q: ListQuery) => {
    const account = q.filters.account_id as { value: number };
    const range = q.filters.created_at as { start?: number; end?: number };
    const hit = all
      .filter((r) => r.account_id === account.value)
      .filter((r) => (range.start ?? -Infinity) <= r.created_at && r.created_at <= (range.end ?? Infinity))
      .sort((a, b) => b.created_at - a.created_at);
    const cap = q.page_size === 0 ? 1000 : q.page_size;
    return { result: hit.slice(0, cap), total_count: hit.length, page: 1, page_size: q.page_size };
  };
  return {
    reads,
    getAccounts: async (ids) => accounts.filter((a) => ids.includes(a.id)),
    enabledAccounts: async () => accounts,
    subsOf: async (id) => {
      reads.push(`subs ${id}`);
      return subs.filter((s) => s.account_id === id);
    },
    listStatements: async (q) => {
      reads.push(`statements ${(q.filters.account_id as { value: number }).value}`);
      return list(rows.statements ?? [], q);
    },
    listBalanceStats: async (q) => {
      reads.push(`stats ${(q.filters.account_id as { value: number }).value}`);
      return list(rows.stats ?? [], q);
    },
  };
}

const account = (id: number, extra: Partial<FigureAccount> = {}): FigureAccount => ({
  id,
  bank_name: 1,
  user: `u${id}`,
  monitor_range: [[0, 86_400]],
  created_at: ago(24 * 30),
  ...extra,
});
const credit = (account_id: number, h: number, amount: number) => ({
  account_id,
  created_at: ago(h),
  sub_account_id: account_id * 10,
  inflow: true,
  amount,
});
const preview = (bank: BankFigures, expression: string, scope: unknown = { kind: 'all' }) =>
  previewAlertRule(bank, { expression, scope: scope as { kind: 'all' } }, 'UTC', NOW);

describe('preview of an alert rule over the last 7 days', () => {
  it('lists each large credit once, newest first, with its account and amount', async () => {
    const bank = fakeBank(
      [account(1), account(2)],
      {
        statements: [
          credit(1, 30, 6_000_000),
          credit(1, 29, 100),
          credit(2, 5, 9_000_000),
          credit(2, 5, 7_000_000),
          credit(1, 24 * 8, 8_000_000), // before the 7 days
        ],
      },
      [],
    );
    const { firings, truncated } = await preview(bank, 'credit > 5,000,000');
    expect(firings).toEqual([
      { at: ago(5), account_id: 2, figure: 'credit', value: 9_000_000 },
      { at: ago(30), account_id: 1, figure: 'credit', value: 6_000_000 },
    ]);
    expect(truncated).toBe(false);
  });

  it('rebuilds the balance from balance changes and fires when it falls below a floor, once per episode', async () => {
    const sub = { id: 10, account_id: 1, status: 1, available_balance: 2_000_000 };
    const change = (h: number, pre: number, cur: number) => ({
      account_id: 1,
      created_at: ago(h),
      sub_account_id: 10,
      pre_bal: pre,
      cur_bal: cur,
      difference: 0,
    });
    const bank = fakeBank(
      [account(1)],
      {
        stats: [
          change(100, 3_000_000, 900_000),
          change(90, 900_000, 800_000),
          change(80, 800_000, 2_000_000),
          change(10, 2_000_000, 500_000),
          change(5, 500_000, 2_000_000),
        ],
      },
      [sub],
    );
    const { firings } = await preview(bank, 'balance < 1,000,000');
    expect(firings).toEqual([
      { at: ago(10), account_id: 1, figure: 'balance', value: 500_000 },
      { at: ago(100), account_id: 1, figure: 'balance', value: 900_000 },
    ]);
  });

  it('grows no_statement_for between polls, inside the monitor ranges only', async () => {
    const bank = fakeBank(
      [account(1, { monitor_range: [[9 * 3600, 17 * 3600]] })],
      { statements: [credit(1, 24 * 8, 5)] },
      [],
    );
    // Silent for more than 7 days: in business time it passed 2 h at 11:00 UTC each day... once, as one long episode.
    const { firings } = await preview(bank, 'no_statement_for > 2h');
    expect(firings).toHaveLength(1);
    // A statement each morning at 09:00 ends the day's silence: it fires each day at 11:00 (after 2 h in range).
    const daily = Array.from({ length: 7 }, (_, d) => ({
      ...credit(1, 0, 5),
      created_at: Date.parse(`2026-11-${String(23 + d).padStart(2, '0')}T09:00:00Z`),
    }));
    const each = await preview(
      fakeBank([account(1, { monitor_range: [[9 * 3600, 17 * 3600]] })], { statements: daily }, []),
      'no_statement_for > 2h',
    );
    // The window opens at 12:00, already 3 h after that day's statement; later days fire at the first
    // 5-minute look past 11:00.
    const times = each.firings.map((f) => new Date(f.at).toISOString().slice(5, 16)).sort();
    expect(times).toEqual(['11-23T12:00', ...[24, 25, 26, 27, 28, 29].map((d) => `11-${d}T11:05`)]);
  });

  it('refuses a condition that does not parse with its column, and reads nothing', async () => {
    const bank = fakeBank([account(1)], {}, []);
    await expect(preview(bank, 'balance < 2h')).rejects.toMatchObject({
      constructor: AlertRuleExpressionInvalidError,
      extra: { column: 11, expected: ['amount'] },
    });
    expect(bank.reads).toEqual([]);
  });

  it('reads at most PREVIEW_ACCOUNTS_CAP accounts and says it stopped short', async () => {
    const many = Array.from({ length: PREVIEW_ACCOUNTS_CAP + 5 }, (_, i) => account(i + 1));
    const bank = fakeBank(many, {}, []);
    const { truncated } = await preview(bank, 'drift > 0');
    expect(truncated).toBe(true);
    expect(new Set(bank.reads.map((r) => r.split(' ')[1])).size).toBe(PREVIEW_ACCOUNTS_CAP);
  });

  it('looks at one bank or the chosen accounts only', async () => {
    const bank = fakeBank(
      [account(1), account(2, { bank_name: 2 })],
      { statements: [credit(1, 3, 10), credit(2, 3, 10)] },
      [],
    );
    expect((await preview(bank, 'credit > 1', { kind: 'bank', bank: 2 })).firings.map((f) => f.account_id)).toEqual([
      2,
    ]);
    expect(
      (await preview(bank, 'credit > 1', { kind: 'accounts', account_ids: [1] })).firings.map((f) => f.account_id),
    ).toEqual([1]);
  });
});
