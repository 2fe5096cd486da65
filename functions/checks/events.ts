import type { MessageAction } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { checkStore } from './store.js';

type Action = (typeof MessageAction.values)[keyof typeof MessageAction.values];

/**
 * Records an engine event for the Operation records screen. A lost event must never fail
 * the check it describes, so failures are logged and swallowed.
 */
export async function recordEvent(
  action: Action,
  operationId: number,
  message: string,
  ids: { task_id?: number; subtask_id?: number } = {},
): Promise<void> {
  try {
    await checkStore().engineEvents.create({
      action,
      operation_id: operationId,
      task_id: ids.task_id ?? null,
      subtask_id: ids.subtask_id ?? null,
      message,
    });
  } catch (error) {
    logger.warn('engine event not recorded', { action, operationId, error: error as Error });
  }
}
