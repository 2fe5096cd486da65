import { defineFollowUp } from '../lib/db/outbox.js';
import { ruleStore, type SlotKey, type StoredAutoLog } from './store.js';

// What a rule slot's run sets in motion (runRuleSlot.ts), recorded in the write that makes it due
// (lib/db/outbox.ts): the started check's operation row carries the slot's log row and the claim's
// completion; a log row of a run that started nothing carries the claim's completion. Applied again,
// each changes nothing more.

export interface SlotLogArgs {
  /** Chosen before the run's first write (ruleStore().newLogId()). */
  id: number;
  log: Omit<StoredAutoLog, 'id' | 'created_at'>;
  key: SlotKey;
  holder: string;
}

/** The slot's log row, written once under its id, with the claim's completion as its own follow-up. */
export function writeSlotLogNow({ id, log, key, holder }: SlotLogArgs): Promise<StoredAutoLog> {
  return ruleStore().addLog(log, { id, followUps: [completeSlot({ key, holder })] });
}

/** The same, as a follow-up of the started check's operation row. */
export const writeSlotLog = defineFollowUp('autocheck.slot_log', writeSlotLogNow);

/** The run left its log row: the claim is kept for good (a second try finds it completed and does nothing). */
export const completeSlot = defineFollowUp('autocheck.slot_done', ({ key, holder }: { key: SlotKey; holder: string }) =>
  ruleStore().completeSlot(key, holder),
);
