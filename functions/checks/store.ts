import type { StoredOf } from '../../shared/listFields.js';
import {
  betUploadListFields,
  checkLogListFields,
  type checkLogRowFields,
  checkResultFields,
  engineEventListFields,
  operationListFields,
  rawLogListFields,
  subtaskListFields,
  taskListFields,
  videoListFields,
} from '../../shared/schemas/checks.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  ConditionFailedError,
  defineEntity,
  type EntityDef,
  type FollowUp,
  type KeptCounts,
  type TransitionOptions,
  type ListOptions,
  type ListOutcome,
} from '../lib/db/entity.js';
import { TRANSITION_RECORD_COUNTS } from '../lib/db/counterGroups.js';
import { newIdOf } from '../lib/db/ids.js';
import {
  createRepository,
  type DynamoRepository,
  type NewRow as PreparedRow,
  putNewRows,
} from '../lib/db/repository.js';
import { transition } from '../lib/db/transition.js';
import { NotFoundError } from '../lib/errors.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
// Log rows below expire after the system config's retention days (their `retention` kind).
import '../systemConfig/getSystemConfig.js';

// Stored shapes of the check engine: the row declarations of shared/schemas/checks.ts plus what
// only storage keeps. API shapes are built from these by joining names (site, user) at read time,
// so a rename never leaves stale copies behind.

export type StoredOperation = StoredOf<
  typeof operationListFields,
  {
    operator_id: number | null;
    site_id: number | null;
    /** 1 while the operation is not finished: a sparse index the reaper reads instead of every operation. */
    open?: 1;
  }
>;

export type StoredTask = StoredOf<
  typeof taskListFields,
  {
    account_id: number | null;
    creator_id: number | null;
    /** Site token id of the session the login subtask captured, reused by the other subtasks. */
    session_id: number | null;
  }
>;

export type StoredSubtask = StoredOf<
  typeof subtaskListFields,
  {
    /** Id of the delivery that claimed it, so a late duplicate cannot finish it twice. */
    run_id?: string;
    /** No longer written (issue 44: the day item's own set guards the rollup's ADD); older rows carry it, hidden. */
    rolled_up_at?: number;
    /**
     * The id its claim allocated for its `subtask_start` record, which its end writes beside its own
     * (issue 44: the claim is one write); read with the row as run_id is, and never shown (read.ts).
     * Absent on rows claimed before: their claim wrote it.
     */
    start_event_id?: number;
  }
>;

/** The shared columns plus whatever result fields the process wrote (checkLogListFields names them). */
export type StoredCheckLog = StoredOf<
  typeof checkLogRowFields,
  { account_id: number | null; [field: string]: unknown }
>;

export type StoredRawLog = StoredOf<
  typeof rawLogListFields,
  { video_id: number | null; screenshot_key: string | null }
>;

/** `key` is the object's key in the bucket; replies carry a time-limited URL instead. */
export type StoredVideo = StoredOf<typeof videoListFields, { key: string }>;

export type StoredCheckResult = StoredOf<typeof checkResultFields>;

export type StoredBetUpload = StoredOf<typeof betUploadListFields, { site_id: number }>;

export type StoredEngineEvent = StoredOf<typeof engineEventListFields>;

/** The counter group of a run's evidence rows (EntityDef.counterGroup). */
const EVIDENCE_COUNTS = 'evidence';

export const operationEntity = defineEntity<StoredOperation>({
  type: 'operation',
  fields: operationListFields,
  keys: ['open', 'rule_id', 'status', 'name'],
});

export const taskEntity = defineEntity<StoredTask>({
  type: 'task',
  fields: taskListFields,
  keys: ['operation_id', 'site_id', 'status'],
});

export const subtaskEntity = defineEntity<StoredSubtask>({
  type: 'subtask',
  fields: subtaskListFields,
  // site_id took a slot in 2026-11 (the dashboard's cells); status moved to the sixth in 2026-12, the index
  // only the subtask uses and which carries its list attributes alone (tableSchema.ts byKey6), since every
  // transition moves the row between status partitions. The start's repair indexes older rows.
  keys: ['task_id', 'operation_id', 'process', 'mode', 'site_id', 'status'],
  hidden: ['rolled_up_at'],
});

export const checkLogEntity = defineEntity<StoredCheckLog>({
  type: 'check_log',
  fields: checkLogListFields,
  // No mode or success slot: every check log list is scoped by its process (shared/schemas/checks.ts).
  keys: ['process', 'subtask_id', 'task_id', 'site_id'],
  retention: 'log_rows',
  // High volume: day buckets, so no partition takes the type's writes (docs/data-model.md).
  partitioning: { bucket: 'day' },
  // A few per subtask: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  // A run's check log, raw log, video and check result are written together (runSubtask.ts
  // storeEvidence): their counts share items, one ADD per shared item for the four rows.
  counterGroup: EVIDENCE_COUNTS,
});

export const rawLogEntity = defineEntity<StoredRawLog>({
  type: 'raw_log',
  fields: rawLogListFields,
  keys: ['business_id', 'subtask_id', 'process', 'success'],
  retention: 'raw_logs',
  // High volume: day buckets, so no partition takes the type's writes (docs/data-model.md).
  partitioning: { bucket: 'day' },
  // A few per subtask: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  counterGroup: EVIDENCE_COUNTS,
});

export const videoEntity = defineEntity<StoredVideo>({
  type: 'video',
  fields: videoListFields,
  keys: ['raw_log_id', 'subtask_id', 'process'],
  retention: 'videos',
  // High volume: day buckets, so no partition takes the type's writes (docs/data-model.md).
  partitioning: { bucket: 'day' },
  // A few per subtask: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  counterGroup: EVIDENCE_COUNTS,
});

export const checkResultEntity = defineEntity<StoredCheckResult>({
  type: 'check_result',
  fields: checkResultFields,
  keys: ['subtask_id'],
  retention: 'log_rows',
  // Day buckets like the rest of its group (2026-11-29): its type's count then rides in the group's
  // day item with theirs, instead of an ADD of its own on `count#check_result` for every attempt.
  partitioning: { bucket: 'day' },
  // One per attempt: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  counterGroup: EVIDENCE_COUNTS,
});

export const betUploadEntity = defineEntity<StoredBetUpload>({
  type: 'bet_upload',
  fields: betUploadListFields,
  keys: ['check_log_id', 'subtask_id', 'mode'],
  retention: 'log_rows',
});

export const engineEventEntity = defineEntity<StoredEngineEvent>({
  type: 'engine_event',
  fields: engineEventListFields,
  keys: ['operation_id', 'action'],
  retention: 'events',
  // High volume: day buckets, so no partition takes the type's writes (docs/data-model.md).
  partitioning: { bucket: 'day' },
  // A few per subtask: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  // Written with a notification by a subtask's or task's end: the day's counts share one item.
  counterGroup: TRANSITION_RECORD_COUNTS,
});

type Row = { id: number; created_at: number };
type NewRow<T extends Row> = Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>;

/** Rows of one kind the check engine keeps. Missing rows are the feature's NotFoundError, never a vendor error. */
export interface CheckRows<T extends Row> {
  /** An id for a row written later with `create(..., { id })`, so rows can name each other before they exist. */
  newId(): Promise<number>;
  /** `followUps`: what the new row sets in motion, stored with it and applied once it is written (lib/db/outbox.ts). */
  /** `counts`: the row's counts collected in a batch its caller flushes once (lib/db/counters.ts CounterBatch). */
  create(data: NewRow<T>, options?: { id?: number; followUps?: FollowUp[]; counts?: KeptCounts }): Promise<T>;
  /** Writes the row under `id` (allocated by its cause) unless it exists: a follow-up applied twice writes it once. */
  createOnce(data: NewRow<T>, id: number, counts?: KeptCounts): Promise<T>;
  createMany(data: NewRow<T>[]): Promise<T[]>;
  /** A new row under an id from `newId`, made ready for CheckStore.createPrepared and not written yet. */
  prepare(data: NewRow<T>, id: number): Promise<PreparedRow<T>>;
  get(id: number): Promise<T | undefined>;
  getMany(ids: number[]): Promise<T[]>;
  list(query: ListQuery, options?: ListOptions): Promise<ListOutcome<T>>;
  /** Every row of an equality scope (e.g. `{ task_id: 7 }`), in creation order. */
  all(options?: ListOptions): Promise<T[]>;
  update(id: number, patch: Partial<T>): Promise<T>;
  /** Atomic counter moves, e.g. `{ task_running: -1, task_done: 1 }`. */
  add(id: number, deltas: Partial<Record<keyof T & string, number>>): Promise<T>;
  /**
   * Counter moves made once per cause (e.g. `subtask_end:42`): a second call for the same cause
   * changes nothing and answers the row as it is.
   */
  addOnce(id: number, deltas: Partial<Record<keyof T & string, number>>, cause: string): Promise<T>;
  /**
   * A state transition: writes `patch` only while the row still holds `from` (e.g. status
   * Pending). Null when another writer got there first, so of racing deliveries exactly one wins.
   * `followUps` are written with it, in the same write, and applied before it answers (or, if this
   * process dies first, by the sweeper): lib/db/outbox.ts. With `beside`, it answers once the row is
   * written and hands `beside` the promise of the rest (TransitionOptions.beside); with `handOff`, their
   * own consumer applies them (TransitionOptions.handOff).
   */
  transition(
    id: number,
    patch: Partial<T>,
    from: Partial<T>,
    followUps?: FollowUp[],
    options?: Pick<TransitionOptions, 'beside' | 'handOff' | 'keepApplied' | 'clearsApplied'>,
  ): Promise<T | null>;
  /** The row (consistent) and the causes its `addOnce` counters have counted: what a counter repair starts from. */
  getCounted(id: number): Promise<{ row: T; causes: string[] } | undefined>;
  /**
   * The counter repair: sets `counts` whole and marks `causes` counted, only while the row still
   * holds `expect` and has counted no cause since `getCounted` (`seen`). Null when it changed meanwhile.
   */
  setCounts(
    id: number,
    counts: Partial<T>,
    guard: { expect: Partial<T>; causes: string[]; seen: number },
  ): Promise<T | null>;
}

/** Where the check engine keeps its rows; the engine and read models depend on this port, not on DynamoDB. */
export interface CheckStore {
  operations: CheckRows<StoredOperation>;
  tasks: CheckRows<StoredTask>;
  subtasks: CheckRows<StoredSubtask>;
  checkLogs: CheckRows<StoredCheckLog>;
  rawLogs: CheckRows<StoredRawLog>;
  videos: CheckRows<StoredVideo>;
  checkResults: CheckRows<StoredCheckResult>;
  betUploads: CheckRows<StoredBetUpload>;
  engineEvents: CheckRows<StoredEngineEvent>;
  /**
   * Writes prepared new rows of any kinds together (one call for a run's evidence, not one per row)
   * and adds their counts to `counts`, which the caller flushes. Their ids come from `newId`, so
   * none can exist already.
   */
  createPrepared(rows: PreparedRow<unknown>[], counts: KeptCounts): Promise<void>;
}

function dynamoCheckRows<T extends Row>(
  def: EntityDef<T>,
  repo: DynamoRepository<T> = createRepository(def),
): CheckRows<T> {
  // Updates and adds are conditioned on the row existing; a transition's own condition is `from`.
  const existing = (id: number, write: Promise<T>) =>
    onConditionFailure(write, () => new NotFoundError(`${def.type} ${id} does not exist`));
  return {
    newId: () => newIdOf(def),
    create: (data, options) => repo.create(data, options),
    createOnce: async (data, id, counts) => (await repo.createOnce(data, id, { counts })).row,
    createMany: (data) => repo.createMany(data),
    prepare: (data, id) => repo.newRow(data, id),
    get: (id) => repo.get(id),
    getMany: (ids) => repo.getMany(ids),
    list: (query, options) => repo.list(query, options),
    all: (options) => repo.all(options),
    update: (id, patch) => existing(id, repo.update(id, patch)),
    add: (id, deltas) => existing(id, repo.add(id, deltas)),
    addOnce: (id, deltas, cause) => existing(id, repo.add(id, deltas, { once: cause })),
    async transition(id, patch, from, followUps, options) {
      try {
        return await transition(repo, id, patch, { expect: from, followUps, ...options });
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },
    getCounted: (id) => repo.getCounted(id),
    async setCounts(id, counts, { expect, causes, seen }) {
      try {
        return await repo.update(id, counts, { expect, causes: { add: causes, seen } });
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },
  };
}

export function dynamoCheckStore(): CheckStore {
  return {
    operations: dynamoCheckRows(operationEntity),
    tasks: dynamoCheckRows(taskEntity),
    subtasks: dynamoCheckRows(subtaskEntity),
    checkLogs: dynamoCheckRows(checkLogEntity),
    rawLogs: dynamoCheckRows(rawLogEntity),
    videos: dynamoCheckRows(videoEntity),
    checkResults: dynamoCheckRows(checkResultEntity),
    betUploads: dynamoCheckRows(betUploadEntity),
    engineEvents: dynamoCheckRows(engineEventEntity),
    createPrepared: putNewRows,
  };
}

let store: CheckStore | undefined;
/** The process-wide store. */
export function checkStore(): CheckStore {
  store ??= dynamoCheckStore();
  return store;
}
