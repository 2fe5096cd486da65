import type { MessageAction } from '../../shared/enums.js';
import { defineFollowUp, type FollowUpContext } from '../lib/db/outbox.js';
import { logger } from '../lib/logger.js';
import { checkStore } from './store.js';

type Action = (typeof MessageAction.values)[keyof typeof MessageAction.values];

/**
 * Records an engine event for the Operation records screen. A lost event must never fail
 * the check it describes, so failures are logged and swallowed. (The events of a transition,
 * which must be written exactly once, are follow-ups instead: `writeEvent`.)
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

export interface EventArgs {
  /** Allocated by the transition (checkStore().engineEvents.newId()), so a second write is refused. */
  id: number;
  action: Action;
  operation_id: number;
  message: string;
  task_id?: number;
  subtask_id?: number;
  /** When the transition happened: a record applied late by the sweeper still sits where it belongs. */
  at: number;
}

/** An id for `writeEvent`, allocated by the cause before it records the event. */
export function newEventId(): Promise<number> {
  return checkStore().engineEvents.newId();
}

/** The event of a transition, written once under the id the transition allocated. */
export const writeEvent = defineFollowUp('check.event', (e: EventArgs, context?: FollowUpContext) =>
  checkStore().engineEvents.createOnce(
    {
      action: e.action,
      operation_id: e.operation_id,
      task_id: e.task_id ?? null,
      subtask_id: e.subtask_id ?? null,
      message: e.message,
      created_at: e.at,
    },
    e.id,
    context?.counts,
  ),
);
