import { evaluateRule, formatFigureValue, type RuleFigures } from '../../shared/alertRules/index.js';
import { BankAccountStatus } from '../../shared/enums.js';
import { msInRanges } from '../../shared/alertRules/rangeTime.js';
import type { ActiveAlertRule } from '../bankAlertRules/rulesForAccount.js';
import {
  type BankIncidentChange,
  type BankIncidentSubject,
  groupSameBank,
  joinOpenSameBankParent,
  recordBankIncident,
} from '../incidents/bankIncidents.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import type { FollowUp } from '../lib/db/entity.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { SNAP_USABLE, type SubSnapshot } from './entities.js';
import type { RecordTally } from './record.js';
import { type BankStore, bankStore, type StoredBankAccount } from './store.js';

// What the bank tells incidents (issue 45 item 1, docs/bank-monitor.md "Incidents"): an account
// turning unwell (a poll leaves it Incorrect, Locked or Wrong; the dispatcher flags it stale) or well
// again, and an alert rule starting or ceasing to hold on it. Each is a transition of the account's
// row (its status, its stale flag, its `rules_firing`), and the incident's change is a follow-up of
// that very write (lib/db/outbox.ts): applied inline, and again by the sweeper after a crash, once
// in effect (functions/incidents/bankIncidents.ts claims each transition's cause). A poll in which
// nothing changes writes no row and reads nothing more: the rules come from a short cache.

const { Enable, Incorrect, Locked, Wrong } = BankAccountStatus.values;

/** The statuses a poll leaves on an account that cannot be polled: its incident is open. */
export const UNWELL_STATUSES: ReadonlySet<number> = new Set([Incorrect, Locked, Wrong]);

/**
 * A transition of a bank account on its incident (incidents/bankIncidents.ts recordBankIncident);
 * an account's own failure then looks for its bank failing as a whole (sameBank).
 */
export const bankIncident = defineFollowUp('bank.incident', async (change: BankIncidentChange) => {
  const id = await recordBankIncident(change);
  if (id === undefined || !change.failing || change.subject.rule !== null) return;
  const { bank_name: bank } = change.subject;
  if (!(await joinOpenSameBankParent(bank, id, change.at))) await sameBank(bankStore(), bank, change.at);
});

/** "Within one dispatch minute": polls that failed this long before the incident's transition count. */
export const SAME_BANK_WINDOW_MS = 60_000;

/**
 * Same bank (issue 45 item 3): when at least half of one bank's enabled accounts (not Disable; and at
 * least 2) failed their last poll within the minute before `at`, their account incidents go under
 * the bank's one parent. Read only when an account's incident opens or joins and its bank has no open
 * parent (later ones join that): the bank's accounts (one key-served page) and their poll records.
 */
export async function sameBank(store: BankStore, bankName: number, at: number): Promise<number | undefined> {
  const page = await store.listAccounts(
    emptyListQuery({ page_size: 1000, filters: { bank_name: { kind: 'enum', values: [bankName] } } }),
  );
  const enabled = page.result.filter((a) => a.status !== BankAccountStatus.values.Disable);
  if (enabled.length < 2) return undefined;
  const polls = await store.pollStatesOf(
    enabled.map((a) => a.id),
    at,
  );
  const failing = enabled.filter((a) => {
    const p = polls.get(a.id)?.data;
    const last = p?.last_refresh ?? 0;
    return p?.last_error !== undefined && last > (p.last_success ?? 0) && last >= at - SAME_BANK_WINDOW_MS;
  });
  if (failing.length < 2 || failing.length * 2 < enabled.length) return undefined;
  return groupSameBank(
    bankName,
    failing.map((a) => a.id),
    at,
  );
}

type AccountRef = Pick<StoredBankAccount, 'id' | 'bank_name' | 'user'>;

const subjectOf = (account: AccountRef, rule: ActiveAlertRule | null = null): BankIncidentSubject => ({
  account_id: account.id,
  bank_name: account.bank_name,
  account_user: account.user,
  rule: rule ? { id: rule.id, name: rule.name, severity: rule.severity, chat_id: rule.chat_id } : null,
});

/** The account's own incident: opened (`failing`) or resolved by the transition named `what` at `at`. */
export function accountIncident(
  account: AccountRef,
  failing: boolean,
  what: string,
  at: number,
  message: string,
): FollowUp {
  return bankIncident({ subject: subjectOf(account), failing, cause: `${account.id}:${what}:${at}`, at, message });
}

/**
 * The follow-ups of a poll's status change: Incorrect, Locked or Wrong opens (or joins) the
 * account's incident; Enable after one of them resolves it.
 */
export function statusIncidents(
  account: AccountRef & Pick<StoredBankAccount, 'status'>,
  next: number | undefined,
  at: number,
  error: string | null,
): FollowUp[] {
  if (next === undefined || next === account.status) return [];
  const label = BankAccountStatus.label(next as never);
  if (UNWELL_STATUSES.has(next))
    return [accountIncident(account, true, `status${next}`, at, `${label}${error ? `: ${error}` : ''}`)];
  if (next === Enable && UNWELL_STATUSES.has(account.status))
    return [accountIncident(account, false, 'status1', at, 'The account polls well again')];
  return [];
}

/** The figures of one poll (shared/alertRules RuleFigures), from what the poll holds: nothing read for them. */
export function pollFigures(input: {
  account: Pick<StoredBankAccount, 'monitor_range' | 'enabled_at'>;
  ok: boolean;
  snapshot: SubSnapshot | undefined;
  tally: RecordTally;
  lastStatementAt: number | undefined;
  status: number;
  now: number;
  timeZone: string;
}): RuleFigures {
  const { snapshot, tally } = input;
  let balance: number | undefined;
  if (input.ok && snapshot) {
    let cents = 0;
    let known = false;
    for (const [, bal, flags] of Object.values(snapshot)) {
      if (!(flags & SNAP_USABLE) || bal === null) continue;
      cents += bal;
      known = true;
    }
    if (known) balance = cents / 100;
  }
  // Silence counts from the newest statement, or from the account's enabling before any.
  const since = input.lastStatementAt ?? input.account.enabled_at;
  return {
    ...(balance !== undefined ? { balance } : {}),
    credits: tally.credits ?? [],
    debits: tally.debits ?? [],
    ...(since
      ? { no_statement_for_ms: msInRanges(input.account.monitor_range, since, input.now, input.timeZone) }
      : {}),
    ...(tally.drift !== undefined ? { drift: tally.drift } : {}),
    status: input.status as RuleFigures['status'],
  };
}

/**
 * The rules holding after a poll, and the follow-ups of the change: a rule that starts holding
 * opens its (rule, account) incident with the rule's severity and chat; one that stops (or left
 * the account's rules: disabled, deleted, out of scope) resolves it. A rule the figures cannot
 * decide (a balance rule on a failed poll) stays as it was. `firing` undefined: nothing changed.
 */
export function ruleIncidents(
  account: AccountRef & Pick<StoredBankAccount, 'rules_firing'>,
  rules: readonly ActiveAlertRule[],
  figures: RuleFigures,
  at: number,
): { firing?: number[]; followUps: FollowUp[] } {
  const before = new Set(account.rules_firing ?? []);
  const after = new Set<number>();
  const followUps: FollowUp[] = [];
  const change = (rule: ActiveAlertRule | null, id: number, failing: boolean, message: string) =>
    followUps.push(
      bankIncident({
        subject: rule
          ? subjectOf(account, rule)
          : { ...subjectOf(account), rule: { id, name: '', severity: 'warning', chat_id: null } },
        failing,
        cause: `${account.id}:rule${id}:${failing ? 'fired' : 'cleared'}:${at}`,
        at,
        message,
      }),
    );
  for (const rule of rules) {
    const outcome = evaluateRule(rule.rule, figures);
    const held = outcome.unknown ? before.has(rule.id) : outcome.fired;
    if (held) after.add(rule.id);
    if (held === before.has(rule.id)) continue;
    const value = outcome.figure ? `${outcome.figure} ${formatFigureValue(outcome.figure, outcome.value)}` : '';
    change(
      rule,
      rule.id,
      held,
      held ? `${rule.expression}${value ? ` (${value})` : ''}` : `Cleared${value ? ` (${value})` : ''}`,
    );
  }
  const active = new Set(rules.map((r) => r.id));
  for (const id of before) if (!active.has(id)) change(null, id, false, 'The rule no longer watches this account');
  if (!followUps.length) return { followUps };
  return { firing: [...after].sort((a, b) => a - b), followUps };
}

/** Disabling an account ends its watch: its own incident and every rule's on it resolve (`rules_firing` emptied). */
export function disabledIncidents(
  account: AccountRef & Pick<StoredBankAccount, 'rules_firing'>,
  at: number,
): FollowUp[] {
  const message = 'The account was disabled';
  return [
    accountIncident(account, false, 'disabled', at, message),
    ...(account.rules_firing ?? []).map((id) =>
      bankIncident({
        subject: { ...subjectOf(account), rule: { id, name: '', severity: 'warning', chat_id: null } },
        failing: false,
        cause: `${account.id}:rule${id}:disabled:${at}`,
        at,
        message,
      }),
    ),
  ];
}
