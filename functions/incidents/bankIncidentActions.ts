import type { IncidentActionBody } from '../../shared/schemas/incidents.js';
import { IncidentEventKind, IncidentKind } from '../../shared/schemas/incidents.js';
import { IncidentActionKindError } from './errors.js';
import { incidentStore, type StoredIncident } from './store.js';

// A bank incident's own buttons (issue 45 item 1): Poll now (one poll of the account, whatever its
// status: a Locked account is polled only so, and a healthy poll resolves the incident) and Disable
// account (its incidents resolve with it, functions/bank/service.ts). Acknowledge and snooze are the
// same as a check incident's (service.ts actOnIncident); re-run and maintenance are a check's only.
// The role (operator and above) is the caller's check, the audit row the route's or the press's.

/**
 * A bank incident's Poll now and Disable account: the bank reports to incidents, so these come from
 * the entry point that composes them (functions/api.ts, service.ts IncidentDeps). A poll's error is
 * its outcome, not thrown.
 */
export interface BankIncidentDeps {
  pollBankAccount?(accountId: number): Promise<{ error: string | null }>;
  disableBankAccount?(accountId: number): Promise<void>;
}

export async function actOnBankIncident(
  row: StoredIncident,
  body: IncidentActionBody,
  actor: { id: number; nickname: string },
  via: 'console' | 'telegram',
  deps: BankIncidentDeps,
  now: number,
): Promise<void> {
  const bank = row.kind === IncidentKind.values.Bank && row.bank_account_id !== null;
  if (!bank || (body.action !== 'poll' && body.action !== 'disable'))
    throw new IncidentActionKindError(row.id, body.action, bank ? 'bank' : 'check');
  const accountId = row.bank_account_id as number;
  const entry = (kind: (typeof IncidentEventKind.values)[keyof typeof IncidentEventKind.values], note: string) =>
    incidentStore().addEvent({
      incident_id: row.id,
      kind,
      at: now,
      subtask_id: null,
      operation_id: null,
      actor: { id: actor.id, nickname: actor.nickname },
      via,
      note,
    });
  if (body.action === 'poll') {
    if (!deps.pollBankAccount) throw new Error('No bank poll was composed into the incidents');
    const outcome = await deps.pollBankAccount(accountId);
    // At the press's instant: before what the poll itself changed (a resolution) on the timeline.
    await entry(IncidentEventKind.values.Polled, outcome.error ?? 'The account answered');
    return;
  }
  if (!deps.disableBankAccount) throw new Error('No bank account switch was composed into the incidents');
  await entry(IncidentEventKind.values.Disabled, '');
  await deps.disableBankAccount(accountId);
}
