import { Bank } from '../../shared/enums.js';
import {
  IncidentCause,
  IncidentEventKind,
  IncidentKind,
  IncidentSeverity,
  type IncidentSeverityValue,
  IncidentStatus,
} from '../../shared/schemas/incidents.js';
import type { ListQuery } from '../../shared/listQuery.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { childResolved, joinParent, openParent, parentKeyOf } from './correlation.js';
import { incidentHolding } from './holdingIncident.js';
import { enqueueIncidentSync } from './incidentQueue.js';
import { incidentStore, type StoredIncident } from './store.js';

// Bank incidents (issue 45 item 1, docs/incidents.md "Bank incidents"): one per bank account while
// it is not well (a poll left it Incorrect, Locked or Wrong, or it went stale), and one per (alert
// rule, account) while the rule holds. Same row, lifecycle, timeline, screens and Telegram message
// as a check incident; `site_*`, `process` and `mode` are null, the account and the rule are named.
//
// The bank decides when an account turns unwell or well again (a transition of its account row:
// the status a poll leaves, the stale flag, the set of rules firing) and records this change as a
// follow-up of that very write (functions/bank/incidents.ts), so it is applied once in effect after
// any crash: the transition's `cause` is claimed for the incident as a subtask's end is for a check
// incident (claimCause), the failure counted under that cause, its timeline entry written under the
// id the claim names, and a resolution frees the open key last.

const { Open, Resolved } = IncidentStatus.values;

/** Which bank incident: the account's own (status, staleness), or one rule's on it. */
export interface BankIncidentSubject {
  account_id: number;
  bank_name: number;
  account_user: string;
  rule: { id: number; name: string; severity: IncidentSeverityValue; chat_id: string | null } | null;
}

/** One transition of a bank account, as its follow-up carries it (plain data). */
export interface BankIncidentChange {
  subject: BankIncidentSubject;
  /** Unwell (opens or joins the incident) or well again (resolves it). */
  failing: boolean;
  /** Names this transition, once: `<account>:<what>:<instant>`. */
  cause: string;
  at: number;
  /** What is wrong (the poll's error, "Stale since …", the rule and its value), or how it ended. */
  message: string;
}

/** The open key of a bank incident: one per account, one per (rule, account). */
export const bankOpenKey = (s: Pick<BankIncidentSubject, 'account_id' | 'rule'>) =>
  s.rule ? `bank:${s.account_id}:rule:${s.rule.id}` : `bank:${s.account_id}`;

async function openBankIncidentFor(change: BankIncidentChange): Promise<StoredIncident> {
  const { subject: s, at } = change;
  const key = bankOpenKey(s);
  const { incident } = await incidentHolding('open', key, () => ({
    kind: IncidentKind.values.Bank,
    is_bank: true,
    site_id: null,
    site_name: null,
    process: null,
    mode: null,
    bank_account_id: s.account_id,
    bank_name: s.bank_name as StoredIncident['bank_name'],
    account_user: s.account_user,
    rule_id: s.rule?.id ?? null,
    rule_name: s.rule?.name ?? null,
    chat_id: s.rule?.chat_id ?? null,
    status: Open,
    opened_at: at,
    resolved_at: null,
    failures: 0,
    last_failure_at: at,
    last_message: change.message,
    acknowledged_by: null,
    snoozed_until: null,
    open_key: key,
    last_reminded_at: at,
    // An account's own trouble is a warning, as a check's; a rule says its own.
    severity: s.rule?.severity ?? IncidentSeverity.values.Warning,
    parent_id: null,
    cause: null,
    children: 0,
  }));
  return incident;
}

/**
 * Records one transition of a bank account on its incident: unwell opens the incident of its key or
 * joins the open one (counted once per cause), well again resolves the open one. Idempotent for the
 * same change (it is a follow-up, applied again after a crash). Answers the incident it touched.
 */
export async function recordBankIncident(change: BankIncidentChange): Promise<number | undefined> {
  const store = incidentStore();
  const key = bankOpenKey(change.subject);
  const { at, cause } = change;
  if (change.failing) {
    const opened = await openBankIncidentFor(change);
    const { incidentId: id, again, eventId } = await store.claimCause(cause, opened.id);
    // The entry comes after the count: a run again that finds it has nothing to count.
    if (!again || eventId === undefined || !(await store.hasEvent(id, eventId))) {
      await store.countCause(id, cause);
      await store.update(id, { last_failure_at: at, last_message: change.message });
      await store.addEvent(
        {
          incident_id: id,
          kind: IncidentEventKind.values.Failure,
          at,
          subtask_id: null,
          operation_id: null,
          actor: null,
          via: null,
          note: change.message,
        },
        eventId,
      );
    }
    await store.settleCause(id, cause);
    await enqueueIncidentSync(id);
    // The group wait (issue 45): an account's new incident sends its first message once its bank's
    // other accounts had the time to join it under one parent (incidentTelegram.ts holds it till then).
    if (change.subject.rule === null && !opened.tg_message_id) {
      const wait = (await getSystemConfig()).alerts.group_wait_seconds;
      if (wait > 0) await enqueueIncidentSync(id, undefined, wait);
    }
    return id;
  }
  const open = await store.openId(key);
  if (open === undefined) return undefined;
  const { incidentId: id, again, eventId } = await store.claimCause(cause, open);
  const resolved = await store.update(id, { status: Resolved, resolved_at: at });
  if (!again || eventId === undefined || !(await store.hasEvent(id, eventId)))
    await store.addEvent(
      {
        incident_id: id,
        kind: IncidentEventKind.values.Resolved,
        at,
        subtask_id: null,
        operation_id: null,
        actor: null,
        via: null,
        note: change.message,
      },
      eventId,
    );
  await enqueueIncidentSync(id);
  // It leaves its parent (same bank), which resolves with its last child.
  await childResolved(resolved, at);
  // Last: while the key is held, a run again after a crash finds the incident to complete.
  await store.releaseOpen(key, id);
  return id;
}

/** The open incident of an account (its own) or of a rule on it, if any. */
export function openBankIncidentId(accountId: number, ruleId?: number): Promise<number | undefined> {
  return incidentStore().openId(
    bankOpenKey({
      account_id: accountId,
      rule: ruleId === undefined ? null : { id: ruleId, name: '', severity: 'warning', chat_id: null },
    }),
  );
}

/** What a bank incident's message says it is about: the bank and the account, and the rule. */
export function bankSubjectLine(i: Pick<StoredIncident, 'bank_name' | 'account_user' | 'rule_name'>): string {
  const bank = i.bank_name === null ? '' : `${Bank.label(i.bank_name)} · `;
  return `${bank}${i.account_user ?? ''}${i.rule_name ? ` · rule ${i.rule_name}` : ''}`;
}

export const isBankIncident = (i: Pick<StoredIncident, 'kind'>) => i.kind === IncidentKind.values.Bank;

/**
 * The list's `kind` filter, served by the stored `is_bank` flag: rows stored before issue 45 carry
 * no kind, and a missing flag reads false, so `kind = check` still finds them.
 */
export function withKindServed(query: ListQuery): ListQuery {
  const kind = query.filters.kind;
  if (!kind) return query;
  const { kind: _, ...filters } = query.filters;
  const values = kind.kind === 'enum' ? kind.values : [];
  const bank = values.includes(IncidentKind.values.Bank);
  const check = values.includes(IncidentKind.values.Check);
  if (bank === check) return { ...query, filters };
  return { ...query, filters: { ...filters, is_bank: { kind: 'boolean', value: bank } } };
}

/**
 * While the bank's same-bank parent is open, an account incident of that bank that opens joins it
 * (as a check's joins its open same-check parent): no recount of the bank's accounts per opening,
 * which in an outage of N accounts would read N accounts N times. False when there is none.
 */
export async function joinOpenSameBankParent(bankName: number, incidentId: number, at: number): Promise<boolean> {
  const store = incidentStore();
  const parentId = await store.parentOf(parentKeyOf(IncidentCause.values.SameBank, String(bankName)));
  const parent = parentId === undefined ? undefined : await store.get(parentId);
  if (!parent || parent.status === Resolved) return false;
  const child = await store.get(incidentId);
  if (!child || child.status === Resolved) return false;
  await joinParent(parent, child, at);
  return true;
}

/**
 * Same bank (issue 45 item 3): the bank side found at least half of one bank's enabled accounts (and
 * at least 2) failing their polls within one dispatch minute; their open account incidents go under
 * the bank's one parent (correlation.ts openParent / joinParent: idempotent, so a run again after a
 * crash changes nothing). Answers the parent's id, or undefined when none of them has an incident.
 */
export async function groupSameBank(bankName: number, accountIds: number[], at: number): Promise<number | undefined> {
  const store = incidentStore();
  const children: StoredIncident[] = [];
  for (const accountId of accountIds) {
    const id = await openBankIncidentId(accountId);
    const child = id === undefined ? undefined : await store.get(id);
    if (child && child.status !== Resolved) children.push(child);
  }
  if (children.length < 2) return undefined;
  const parent = await openParent({
    cause: IncidentCause.values.SameBank,
    key: String(bankName),
    title: Bank.label(bankName as never),
    at,
    fields: { kind: IncidentKind.values.Bank, is_bank: true, bank_name: bankName as StoredIncident['bank_name'] },
  });
  for (const child of children) await joinParent(parent, child, at);
  return parent.id;
}
