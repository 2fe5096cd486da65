import { NotificationCategory, Process, RunStatus, TestMode } from '../../shared/enums.js';
import type { NewNotification } from '../notifications/service.js';
import { siteRefs } from '../sites/service.js';
import type { StoredOperation, StoredSubtask, StoredTask } from './store.js';

// The notifications a check writes when a subtask, a task and an operation end (docs/check-engine.md).

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The site's name as the notifications show it (a deleted site still has one; an unknown id its number). */
export async function siteName(siteId: number): Promise<string> {
  return (await siteRefs([siteId])).get(siteId)?.name ?? `site ${siteId}`;
}

/** "Login Account (D4)". */
export const subtaskLabel = (sub: Pick<StoredSubtask, 'process' | 'mode'>) =>
  `${Process.label(sub.process)} (${TestMode.label(sub.mode)})`;

export function subtaskNotification(sub: StoredSubtask, name: string): NewNotification {
  const ok = sub.status === RunStatus.values.Done;
  const label = subtaskLabel(sub);
  return {
    category: NotificationCategory.values.Subtask,
    title: `${name}: ${label} ${ok ? 'Done' : 'Failed'}`,
    caption: `Subtask ${sub.id} of operation ${sub.operation_id}`,
    content: `<p>Site <b>${escapeHtml(name)}</b>, ${escapeHtml(label)}: <b>${ok ? 'Done' : 'Failed'}</b></p><p>${escapeHtml(sub.msg)}</p><p><a href="/operations/${sub.operation_id}">Operation ${sub.operation_id}</a></p>`,
    link: `/operations/${sub.operation_id}`,
  };
}

export function taskNotification(task: StoredTask, name: string): NewNotification {
  const failed = task.task_failed > 0;
  return {
    category: NotificationCategory.values.Task,
    title: `${name}: check ${failed ? 'finished with failures' : 'passed'}`,
    caption: `Task ${task.id} of operation ${task.operation_id}`,
    content: `<p>Site <b>${escapeHtml(name)}</b>: ${task.task_total - task.task_failed} passed, <b>${task.task_failed}</b> failed of ${task.task_total}.</p><p><a href="/operations/${task.operation_id}">Operation ${task.operation_id}</a></p>`,
    link: `/operations/${task.operation_id}`,
  };
}

export function operationNotification(op: StoredOperation): NewNotification {
  const done = op.task_failed === 0;
  return {
    category: NotificationCategory.values.Operation,
    title: `Operation ${op.id} ${done ? 'done' : 'finished with failures'}`,
    caption: `${op.task_total} site(s) checked`,
    content: `<p>Operation <b>${op.id}</b>: ${op.task_total - op.task_failed} site(s) passed, <b>${op.task_failed}</b> with failures.</p><p><a href="/operations/${op.id}">Open operation ${op.id}</a></p>`,
    link: `/operations/${op.id}`,
    from_user_id: op.operator_id,
    operation_id: op.id,
  };
}
