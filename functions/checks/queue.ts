import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { StoredSubtask } from './store.js';

/** The check queue's message: one subtask to run. */
export interface CheckMessage {
  subtask_id: number;
  operation_id: number;
}

export async function enqueueSubtasks(list: Pick<StoredSubtask, 'id' | 'operation_id'>[]): Promise<void> {
  if (!list.length) return;
  await sendToQueue(
    'check',
    list.map((s): CheckMessage => ({ subtask_id: s.id, operation_id: s.operation_id })),
  );
}
