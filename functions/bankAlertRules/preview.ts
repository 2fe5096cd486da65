import { evaluateRule, parseRule, type Rule, type RuleFigures } from '../../shared/alertRules/index.js';
import { msInRanges } from '../../shared/alertRules/rangeTime.js';
import { SubAccountStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type {
  AlertRuleFiring,
  AlertRulePreview,
  AlertRulePreviewBody,
  AlertRuleScope,
} from '../../shared/schemas/bankAlertRules.js';
import type { BankFigures, FigureAccount, FigureBalanceStat, FigureStatement } from './bankFigures.js';
import { checkExpression, checkScope } from './service.js';

// The preview (issue 45 item 2): when a rule would have fired over the last 7 days of stored
// figures. What is stored is replayed as the poll would have seen it (docs/bank-monitor.md,
// "Alert rules: the preview"):
// - each poll that stored statements or balance changes is an instant (its rows share its time):
//   `credit` / `debit` are its statements, `drift` its balance changes' largest |difference|;
// - `balance` is the sum of the Available sub-accounts' balances, rebuilt from the balance changes
//   (before the first change in the window: its previous balance; none: the balance now);
// - `no_statement_for` counts in-range time since the newest statement before the instant, also
//   checked every PREVIEW_STEP_MS between polls (idle polls are not stored, their time is); before
//   any statement it counts from the account's enabling, as the poll does;
// - `status` is not stored over time: unknown, so `status = Locked` alone never fires here.
// A firing is the start of an episode (not fired → fired), as the incident it would have opened.
// Unknown keeps the episode as it is, as the poll does.

export const PREVIEW_DAYS = 7;
const PREVIEW_MS = PREVIEW_DAYS * 86_400_000;
/** How often the time between stored polls is looked at (no_statement_for grows while idle). */
export const PREVIEW_STEP_MS = 5 * 60_000;
/** Accounts one preview reads at most (each: its sub-accounts and two lists of at most ROWS_CAP). */
export const PREVIEW_ACCOUNTS_CAP = 20;
/** Statements, and balance changes, one account's preview reads at most (the list protocol's "All"). */
export const PREVIEW_ROWS_CAP = 1000;
/** Firings listed at most. */
export const PREVIEW_FIRINGS_CAP = 200;

const listOf = (account_id: number, filters: ListQuery['filters'], page_size = 0): ListQuery => ({
  page: 1,
  page_size,
  sort: [{ field: 'created_at', order: 'desc' }],
  keywordField: [],
  filters: { account_id: { kind: 'number', op: '=', value: account_id }, ...filters },
});

/** The accounts in scope the preview looks at, by id, at most PREVIEW_ACCOUNTS_CAP. */
async function accountsOf(
  bank: BankFigures,
  scope: AlertRuleScope,
): Promise<{ accounts: FigureAccount[]; more: boolean }> {
  const all =
    scope.kind === 'accounts'
      ? await bank.getAccounts(scope.account_ids)
      : (await bank.enabledAccounts()).filter((a) => scope.kind === 'all' || a.bank_name === scope.bank);
  const sorted = [...all].sort((a, b) => a.id - b.id);
  return { accounts: sorted.slice(0, PREVIEW_ACCOUNTS_CAP), more: sorted.length > PREVIEW_ACCOUNTS_CAP };
}

export interface AccountHistory {
  account: FigureAccount;
  /** Available sub-accounts' balances now. */
  balancesNow: Map<number, number>;
  statements: FigureStatement[];
  stats: FigureBalanceStat[];
  /** The newest statement before the window, if any. */
  before: number | undefined;
  truncated: boolean;
  /** The configured zone the monitor ranges are in. */
  timeZone: string;
}

async function historyOf(
  bank: BankFigures,
  account: FigureAccount,
  since: number,
  now: number,
  timeZone: string,
): Promise<AccountHistory> {
  const window = { created_at: { kind: 'range' as const, start: since, end: now } };
  const [subs, statements, stats, before] = await Promise.all([
    bank.subsOf(account.id),
    bank.listStatements(listOf(account.id, window)),
    bank.listBalanceStats(listOf(account.id, window)),
    bank.listStatements(listOf(account.id, { created_at: { kind: 'range', end: since - 1 } }, 1)),
  ]);
  const balancesNow = new Map<number, number>();
  for (const s of subs)
    if (s.status === SubAccountStatus.values.Available) balancesNow.set(s.id, s.available_balance ?? 0);
  return {
    account,
    balancesNow,
    statements: statements.result,
    stats: stats.result,
    before: before.result[0]?.created_at,
    truncated: statements.total_count > statements.result.length || stats.total_count > stats.result.length,
    timeZone,
  };
}

/** The account's figures at each instant of the window, oldest first. */
function* instants(h: AccountHistory, rule: Rule, since: number, now: number): Generator<[number, RuleFigures]> {
  const byTime = new Map<number, { statements: FigureStatement[]; stats: FigureBalanceStat[] }>();
  const at = (t: number) => {
    const slot = byTime.get(t) ?? { statements: [], stats: [] };
    byTime.set(t, slot);
    return slot;
  };
  for (const s of h.statements) at(s.created_at).statements.push(s);
  for (const s of h.stats) at(s.created_at).stats.push(s);
  if (rule.figures.includes('no_statement_for')) for (let t = since; t <= now; t += PREVIEW_STEP_MS) at(t);
  at(since);

  // Balances at the window's start: each sub-account's first change in the window says what it was before.
  const balance = new Map(h.balancesNow);
  const firstChange = new Map<number, FigureBalanceStat>();
  for (const s of h.stats) {
    const seen = firstChange.get(s.sub_account_id);
    if (!seen || s.created_at < seen.created_at) firstChange.set(s.sub_account_id, s);
  }
  for (const [sub, s] of firstChange) if (balance.has(sub)) balance.set(sub, s.pre_bal);

  // The silence grows step by step (each step's in-range time added), and a statement ends it.
  let silence = msInRanges(
    h.account.monitor_range,
    h.before ?? h.account.enabled_at ?? h.account.created_at,
    since,
    h.timeZone,
  );
  let previous = since;
  for (const t of [...byTime.keys()].sort((a, b) => a - b)) {
    const { statements, stats } = byTime.get(t) as { statements: FigureStatement[]; stats: FigureBalanceStat[] };
    for (const s of stats) if (balance.has(s.sub_account_id)) balance.set(s.sub_account_id, s.cur_bal);
    silence = statements.length ? 0 : silence + msInRanges(h.account.monitor_range, previous, t, h.timeZone);
    previous = t;
    yield [
      t,
      {
        ...(balance.size ? { balance: [...balance.values()].reduce((a, b) => a + b, 0) } : {}),
        credits: statements.filter((s) => s.inflow).map((s) => s.amount),
        debits: statements.filter((s) => !s.inflow).map((s) => s.amount),
        ...(stats.length ? { drift: Math.max(...stats.map((s) => Math.abs(s.difference))) } : {}),
        no_statement_for_ms: silence,
      },
    ];
  }
}

/** When the rule would have fired on one account: the start of each episode. */
export function firingsOf(h: AccountHistory, rule: Rule, since: number, now: number): AlertRuleFiring[] {
  const out: AlertRuleFiring[] = [];
  let firing = false;
  for (const [at, figures] of instants(h, rule, since, now)) {
    const outcome = evaluateRule(rule, figures);
    if (outcome.unknown) continue;
    if (outcome.fired && !firing)
      out.push({ at, account_id: h.account.id, figure: outcome.figure, value: outcome.value });
    firing = outcome.fired;
  }
  return out;
}

export async function previewAlertRule(
  bank: BankFigures,
  body: AlertRulePreviewBody,
  timeZone: string,
  now = Date.now(),
): Promise<AlertRulePreview> {
  checkExpression(body.expression);
  await checkScope(bank, body.scope);
  const parsed = parseRule(body.expression);
  if (!parsed.ok) throw new Error('unreachable: checked above');
  const since = now - PREVIEW_MS;
  const { accounts, more } = await accountsOf(bank, body.scope);
  const histories = await Promise.all(accounts.map((a) => historyOf(bank, a, since, now, timeZone)));
  const firings: AlertRuleFiring[] = [];
  for (const h of histories) firings.push(...firingsOf(h, parsed.rule, since, now));
  firings.sort((a, b) => b.at - a.at || a.account_id - b.account_id);
  return {
    firings: firings.slice(0, PREVIEW_FIRINGS_CAP),
    truncated: more || firings.length > PREVIEW_FIRINGS_CAP || histories.some((h) => h.truncated),
  };
}
