import { RunStatus } from '../../shared/enums.js';
import type { StoredSubtask } from './store.js';

/** What names a planned subtask: its task, operation and site, and the (process, mode) it checks. */
export type PlannedSubtask = Pick<StoredSubtask, 'task_id' | 'operation_id' | 'site_id' | 'process' | 'mode'>;

/**
 * A new subtask's row, as every creator writes it (the start, and the rigs of the engine's bench
 * and crash tests): Pending, not started, and nothing the checker's attempts decide yet.
 */
export function pendingSubtask(planned: PlannedSubtask): Omit<StoredSubtask, 'id' | 'created_at'> {
  return {
    ...planned,
    status: RunStatus.values.Pending,
    start_at: null,
    end_at: null,
    msg: '',
    attempts: null,
    flaky: false,
    degraded: false,
    duration_ms: null,
  };
}
