import type { CheckMessage, CheckMessageTask } from '../../shared/schemas/checkMessage.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { StoredSubtask } from './store.js';

export type { CheckMessage };

/**
 * One message per subtask, with the fields the checker claims and reads by (CheckMessageSubtask),
 * and the started task's account and session when the sender knows them (CheckMessageTask).
 */
export async function enqueueSubtasks(
  list: Pick<StoredSubtask, 'id' | 'operation_id' | 'task_id' | 'site_id' | 'process' | 'mode'>[],
  task?: CheckMessageTask,
): Promise<void> {
  if (!list.length) return;
  await sendToQueue(
    'check',
    list.map(
      (s): CheckMessage => ({
        subtask_id: s.id,
        operation_id: s.operation_id,
        subtask: { task_id: s.task_id, site_id: s.site_id, process: s.process, mode: s.mode },
        ...(task && { task }),
      }),
    ),
  );
}
