import {
  betUploadListFields,
  checkLogListFields,
  engineEventListFields,
  operationListFields,
  rawLogListFields,
  subtaskListFields,
  taskListFields,
  videoListFields,
  type Checkpoints,
  type ProcessValue,
  type RunStatusValue,
  type StepTiming,
  type TestModeValue,
} from '../../shared/schemas/checks.js';
import { defineEntity } from '../lib/db/entity.js';
import { createRepository } from '../lib/db/repository.js';

// Stored shapes of the check engine. API shapes (shared/schemas/checks.ts) are built from these
// by joining names (site, user) at read time, so a rename never leaves stale copies behind.

/** Log rows, raw logs, videos and engine events live 180 days (DynamoDB TTL). */
const LOG_TTL_SECONDS = 180 * 24 * 3600;

export interface StoredOperation {
  id: number;
  name: 1 | 2 | 3;
  status: RunStatusValue;
  operator_id: number | null;
  site_id: number | null;
  rule_id: number | null;
  task_total: number;
  task_done: number;
  task_failed: number;
  task_running: number;
  /** 1 while the operation is not finished: a sparse index the reaper reads instead of every operation. */
  open?: 1;
  start_at: number | null;
  end_at: number | null;
  remark: string;
  created_at: number;
}

export interface StoredTask {
  id: number;
  operation_id: number;
  site_id: number;
  account_id: number | null;
  checkpoints: Checkpoints;
  status: 1 | 2 | 3 | 100;
  creator_id: number | null;
  /** Subtask counters, kept by atomic adds; `recountTask` is their repair path. */
  task_total: number;
  task_done: number;
  task_failed: number;
  task_running: number;
  /** Site token id of the session the login subtask captured, reused by the other subtasks. */
  session_id: number | null;
  start_at: number | null;
  end_at: number | null;
  remark: string;
  created_at: number;
}

export interface StoredSubtask {
  id: number;
  task_id: number;
  operation_id: number;
  site_id: number;
  mode: TestModeValue;
  process: ProcessValue;
  status: RunStatusValue;
  /** Id of the delivery that claimed it, so a late duplicate cannot finish it twice. */
  run_id?: string;
  start_at: number | null;
  end_at: number | null;
  msg: string;
  created_at: number;
}

export interface StoredCheckLog {
  id: number;
  process: ProcessValue;
  mode: TestModeValue;
  task_id: number;
  subtask_id: number;
  site_id: number;
  account_id: number | null;
  success: boolean;
  raw_log_id: number | null;
  created_at: number;
  [field: string]: unknown;
}

export interface StoredRawLog {
  id: number;
  process: ProcessValue;
  business_id: number;
  subtask_id: number;
  success: boolean;
  remark: string;
  result: unknown;
  steps: StepTiming[];
  console_errors: string[];
  video_id: number | null;
  screenshot_key: string | null;
  created_at: number;
}

export interface StoredVideo {
  id: number;
  process: ProcessValue;
  size: number;
  key: string;
  content_type: string;
  duration_ms: number;
  raw_log_id: number;
  subtask_id: number;
  created_at: number;
}

export interface StoredCheckResult {
  id: number;
  subtask_id: number;
  raw_log_id: number;
  created_at: number;
}

export interface StoredBetUpload {
  id: number;
  check_log_id: number;
  subtask_id: number;
  site_id: number;
  mode: TestModeValue;
  bet_id: string;
  number: string;
  big: number;
  small: number;
  created_at: number;
}

export interface StoredEngineEvent {
  id: number;
  action: string;
  operation_id: number;
  task_id: number | null;
  subtask_id: number | null;
  message: string;
  created_at: number;
}

export const operations = createRepository(
  defineEntity<StoredOperation>({
    type: 'operation',
    fields: operationListFields,
    keys: ['open', 'rule_id', 'status', 'name'],
  }),
);

export const tasks = createRepository(
  defineEntity<StoredTask>({
    type: 'task',
    fields: taskListFields,
    keys: ['operation_id', 'site_id', 'status'],
  }),
);

export const subtasks = createRepository(
  defineEntity<StoredSubtask>({
    type: 'subtask',
    fields: subtaskListFields,
    keys: ['task_id', 'operation_id', 'process', 'mode', 'status'],
  }),
);

export const checkLogs = createRepository(
  defineEntity<StoredCheckLog>({
    type: 'check_log',
    fields: checkLogListFields,
    keys: ['process', 'subtask_id', 'task_id', 'site_id', 'mode', 'success'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);

export const rawLogs = createRepository(
  defineEntity<StoredRawLog>({
    type: 'raw_log',
    fields: rawLogListFields,
    keys: ['business_id', 'subtask_id', 'process', 'success'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);

export const videos = createRepository(
  defineEntity<StoredVideo>({
    type: 'video',
    fields: videoListFields,
    keys: ['raw_log_id', 'subtask_id', 'process'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);

export const checkResults = createRepository(
  defineEntity<StoredCheckResult>({
    type: 'check_result',
    fields: { id: 'number', subtask_id: 'number', created_at: 'datetime' },
    keys: ['subtask_id'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);

export const betUploads = createRepository(
  defineEntity<StoredBetUpload>({
    type: 'bet_upload',
    fields: betUploadListFields,
    keys: ['check_log_id', 'subtask_id', 'mode'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);

export const engineEvents = createRepository(
  defineEntity<StoredEngineEvent>({
    type: 'engine_event',
    fields: engineEventListFields,
    keys: ['operation_id', 'action'],
    ttlSeconds: LOG_TTL_SECONDS,
  }),
);
