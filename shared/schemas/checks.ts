import { z } from 'zod';
import {
  type EnumValue,
  MessageAction,
  OperationAction,
  OperationName,
  Process,
  RunStatus,
  TaskStatus,
  TestMode,
} from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import type { FailedRequest, ProcessValue, TestModeValue } from './checkResults.js';
import type { FailureKind } from './systemConfig.js';
import { Bounds, type UserRef } from './common.js';
import { ValidatorMessages } from '../validators.js';

// Checks: Operation -> Task (one per site) -> SubTask (one per process and mode), their logs,
// raw logs and videos (spec sections 3, 4, 5, 7).

export type { ProcessValue, TestModeValue };
export type RunStatusValue = EnumValue<typeof RunStatus>;

export const CheckMessages = {
  noCheckpointSingle: 'No checkpoint to check',
  noPointBatch: 'No point to check',
  noSites: 'Please select sites first',
} as const;

/** One function point with the test modes chosen for it. Input says `point`, output says `process`. */
export const CheckPoint = z.object({
  point: z.number().refine((v) => Process.has(v), 'Unknown checkpoint'),
  modes: z
    .array(z.number().refine((v) => TestMode.has(v), 'Unknown test mode'))
    .max(Bounds.list, ValidatorMessages.max(Bounds.list))
    .default([]),
});
export type CheckPoint = z.infer<typeof CheckPoint>;

export interface Checkpoints {
  points: { process: ProcessValue; modes: TestModeValue[] }[];
}

export const SiteCheckBody = z.object({
  points: z.array(CheckPoint).max(Bounds.list, ValidatorMessages.max(Bounds.list)).default([]),
});
export type SiteCheckBody = z.infer<typeof SiteCheckBody>;

export const BatchCheckBody = z.object({
  sites: z.array(z.number().int().positive()).max(Bounds.ids, ValidatorMessages.max(Bounds.ids)).default([]),
  points: z.array(CheckPoint).max(Bounds.list, ValidatorMessages.max(Bounds.list)).default([]),
});
export type BatchCheckBody = z.infer<typeof BatchCheckBody>;

const { Pause, Resume } = OperationAction.values;
export const ActionBody = z.object({
  action: z.union([z.literal(Pause), z.literal(Resume)], {
    error: `action must be ${Pause} (pause) or ${Resume} (resume)`,
  }),
});
export type ActionBody = z.infer<typeof ActionBody>;

// API rows derive from the row declarations below (RowOf): a reply shows the declared fields, with
// the ids it names (site, account, creator) replaced by those names, read at reply time.

export interface Operation extends RowOf<typeof operationListFields> {
  operator: UserRef;
  /** Shown only when name is 1 (SingleSite); otherwise the web shows MultiSites. */
  site: { id: number; name: string } | null;
}

export interface ProcessGroup {
  process: ProcessValue;
  tasks: Subtask[];
  task_failed: number;
  task_running: number;
  task_total: number;
}

export interface Task extends Omit<RowOf<typeof taskListFields>, 'site_id'> {
  site: { id: number; name: string; url: string } | null;
  account: { id: number; user: string } | null;
  creator: UserRef;
  /** Present on GET /check/tasks/{id} */
  subtasks?: ProcessGroup[];
}

export interface Subtask extends Omit<RowOf<typeof subtaskListFields>, 'site_id'> {
  site: { id: number; name: string } | null;
}

export interface Video extends RowOf<typeof videoListFields> {
  /** A time-limited address to play it; null when the object is missing. */
  url: string | null;
}

export interface StepTiming {
  name: string;
  ms: number;
  ok: boolean;
  detail?: string;
}

export interface RawLog extends RowOf<typeof rawLogListFields> {
  video: Video | null;
  /** Address of a PNG of the last page, for failed checks. */
  screenshot_url: string | null;
}

export interface CheckResult extends Omit<RowOf<typeof checkResultFields>, 'raw_log_id'> {
  raw_log: RawLog | null;
}

/** The wire names of the eight log lists (spec section 7) and their processes. */
export const LOG_KINDS = {
  login: Process.values.Login,
  'place-bets': Process.values.PlaceBets,
  'delete-bet': Process.values.DeleteBets,
  'fix-bet': Process.values.CheckFixBets,
  'out-setting-3': Process.values.OutSetting3,
  'delete-bet-out': Process.values.DeleteBetsOut,
  'out-setting-3-status': Process.values.OutSetting3Status,
  'agent-setting': Process.values.AgentSetting,
} as const;
export type LogKind = keyof typeof LOG_KINDS;

/** A check log row: the shared columns plus the process's own result fields. */
export interface CheckLog extends Omit<RowOf<typeof checkLogRowFields>, 'site_id'> {
  site: { id: number; name: string } | null;
  account: { user: string } | null;
  [field: string]: unknown;
}

export interface BetUpload extends RowOf<typeof betUploadListFields> {
  site: { name: string } | null;
}

export type EngineEvent = RowOf<typeof engineEventListFields>;

// Row declarations (shared/listFields.ts): per field its type, value type and what a list may do;
// a field without capabilities is shown only. `key` filters are the slot fields each store maps to
// an index (functions/checks/store.ts). The API rows above and the stored shapes derive from them.
const bounded = { sort: 'bounded', filter: 'bounded' } as const;
const keyFilter = { sort: 'bounded', filter: 'key' } as const;

/** Progress counters of an operation (over its tasks) and of a task (over its subtasks). */
const progressFields = {
  task_total: field.number(),
  task_done: field.number(),
  task_failed: field.number(),
  task_running: field.number(),
};

export const operationListFields = {
  ...keyOrderFields,
  name: field.enum(OperationName, keyFilter),
  status: field.enum(RunStatus, keyFilter),
  remark: field.text({ ...bounded, search: true }),
  start_at: field.datetime<number | null>(bounded),
  end_at: field.datetime<number | null>(bounded),
  /** The auto-check rule that started it; null for manual checks. */
  rule_id: field.number<number | null>(),
  ...progressFields,
} as const satisfies ListFields;

export const taskListFields = {
  ...keyOrderFields,
  operation_id: field.number(keyFilter),
  site_id: field.number(keyFilter),
  status: field.enum(TaskStatus, keyFilter),
  remark: field.text({ ...bounded, search: true }),
  start_at: field.datetime<number | null>(bounded),
  end_at: field.datetime<number | null>(bounded),
  checkpoints: field.shown<Checkpoints>(),
  /** Subtask counters, moved once per subtask transition by its follow-ups; the reaper repairs a disagreement (functions/checks/repairCounts.ts). */
  ...progressFields,
} as const satisfies ListFields;

export const subtaskListFields = {
  ...keyOrderFields,
  task_id: field.number(keyFilter),
  operation_id: field.number(keyFilter),
  mode: field.enum(TestMode, keyFilter),
  process: field.enum(Process, keyFilter),
  status: field.enum(RunStatus, keyFilter),
  /** The dashboard's cells open the subtasks of one (site, process, mode): the site is a key. */
  site_id: field.number(keyFilter),
  msg: field.text({ ...bounded, search: true }),
  start_at: field.datetime<number | null>(bounded),
  end_at: field.datetime<number | null>(bounded),
  /** Attempts the checker made (1 + retries it used); null until it ends. */
  attempts: field.number<number | null>(bounded),
  /** Ended Done after a failed attempt (docs/check-engine.md "Retries"). */
  flaky: field.boolean(bounded),
  /** Ended Done slower than its process's time budget (checker.time_budget_ms): Slow, not failed. */
  degraded: field.boolean(bounded),
  /** ms of the attempt that decided it (the passing one, or the last); null until it ends. */
  duration_ms: field.number<number | null>(bounded),
} as const satisfies ListFields;

/** The columns every check log has, whatever its process. */
export const checkLogRowFields = {
  ...keyOrderFields,
  process: field.enum(Process, keyFilter),
  // Bounded, not key: every log list is scoped by its process, the partition the engine reads, so
  // a mode or success slot would be written with every row and never read (issue 44).
  mode: field.enum(TestMode, bounded),
  task_id: field.number(keyFilter),
  subtask_id: field.number(keyFilter),
  site_id: field.number(keyFilter),
  raw_log_id: field.number<number | null>(bounded),
  success: field.boolean(bounded),
} as const satisfies ListFields;

/** The columns of all eight log lists; each list filters on the ones its process writes. */
export const checkLogListFields = {
  ...checkLogRowFields,
  description: field.text({ ...bounded, search: true }),
  msg: field.text({ ...bounded, search: true }),
  login_success: field.boolean(bounded),
  DrawOpen: field.boolean(bounded),
  bet_success: field.boolean(bounded),
  has_record: field.boolean(bounded),
  delete_success: field.boolean(bounded),
  query_success: field.boolean(bounded),
  process_success: field.boolean(bounded),
  is_closed: field.boolean(bounded),
  response_timing: field.number(bounded),
  executed_timing: field.number(bounded),
  status_code: field.number(bounded),
  records_cnt: field.number(bounded),
  active_cnt: field.number(bounded),
  inactive_cnt: field.number(bounded),
  fixed_bets: field.number(bounded),
  balance_left: field.number(bounded),
  agents_cnt: field.number(bounded),
  normal_cnt: field.number(bounded),
} as const satisfies ListFields;

export const rawLogListFields = {
  ...keyOrderFields,
  process: field.enum(Process, keyFilter),
  /** The related check log id. */
  business_id: field.number(keyFilter),
  subtask_id: field.number(keyFilter),
  success: field.boolean(keyFilter),
  remark: field.text({ ...bounded, search: true }),
  /** The process's own result, as its driver returned it. */
  result: field.shown<unknown>(),
  steps: field.shown<StepTiming[]>(),
  console_errors: field.shown<string[]>(),
  /** Which attempt of its subtask this was (1, 2, 3); null on rows from before retries. */
  attempt: field.number<number | null>(),
  /** Why the attempt failed (FailureKinds); null when it passed. */
  failure_kind: field.shown<FailureKind | null>(),
  /** Requests that failed or were answered 4xx/5xx, secrets stripped. */
  failed_requests: field.shown<FailedRequest[]>(),
  /** ms the attempt took. */
  duration_ms: field.number<number | null>(),
} as const satisfies ListFields;

export const videoListFields = {
  ...keyOrderFields,
  process: field.enum(Process, keyFilter),
  /** Bytes; the web shows Kib. */
  size: field.number(bounded),
  raw_log_id: field.number(keyFilter),
  subtask_id: field.number(keyFilter),
  content_type: field.text(),
  duration_ms: field.number(),
} as const satisfies ListFields;

/** A check result links a subtask run to its raw log (GET /check/subtasks/{id}/results; no list). */
export const checkResultFields = {
  ...keyOrderFields,
  subtask_id: field.number(keyFilter),
  raw_log_id: field.number(),
} as const satisfies ListFields;

export const betUploadListFields = {
  ...keyOrderFields,
  check_log_id: field.number(keyFilter),
  subtask_id: field.number(keyFilter),
  mode: field.enum(TestMode, keyFilter),
  number: field.text({ ...bounded, search: true }),
  bet_id: field.text(),
  big: field.number(),
  small: field.number(),
} as const satisfies ListFields;

export const engineEventListFields = {
  ...keyOrderFields,
  action: field.enum(MessageAction, keyFilter),
  operation_id: field.number(keyFilter),
  message: field.text({ ...bounded, search: true }),
  task_id: field.number<number | null>(),
  subtask_id: field.number<number | null>(),
} as const satisfies ListFields;

/** One attempt of a subtask (GET /check/subtasks/{id}/attempts): its own raw log, video and timings. */
export interface SubtaskAttempt {
  /** 1, 2, 3 in the order they ran. */
  attempt: number;
  success: boolean;
  msg: string;
  failure_kind: FailureKind | null;
  duration_ms: number | null;
  created_at: number;
  raw_log_id: number;
  steps: StepTiming[];
  video: Video | null;
  screenshot_url: string | null;
}

/** What a failed attempt left (GET /check/subtasks/{id}/evidence). */
export interface AttemptEvidence extends SubtaskAttempt {
  console_errors: string[];
  failed_requests: FailedRequest[];
}

export interface SubtaskEvidence {
  subtask_id: number;
  /** The failed attempts, oldest first; empty for a subtask that passed at once. */
  failures: AttemptEvidence[];
}

/** This run beside the same (site, process, mode)'s last Done run before it (the compare view). */
export interface SubtaskComparison {
  subtask: Subtask;
  /** Its deciding attempt (the last one). */
  attempt: AttemptEvidence | null;
  last_pass: { subtask: Subtask; attempt: AttemptEvidence | null } | null;
}
