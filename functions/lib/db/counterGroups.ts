// Counter groups shared by the stores of more than one feature (EntityDef.counterGroup,
// lib/db/partitions.ts listTotalKey). A group's types keep their counts in shared items, so rows of
// them written by one piece of work move each shared item once (a CounterBatch).

/**
 * What a check's transition records: its engine event and its notification (a subtask's end, a
 * task's end). Both are day-bucketed, so the day's counts of the two move in one ADD.
 */
export const TRANSITION_RECORD_COUNTS = 'records';
