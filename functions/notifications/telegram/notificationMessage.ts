import { NotificationCategory, Process, RunStatus, TestMode } from '../../../shared/enums.js';
import { checkStore } from '../../checks/store.js';
import { config } from '../../lib/config.js';
import { siteRefs } from '../../sites/service.js';
import type { StoredNotification } from '../store.js';
import type { Line } from './formatMessage.js';

// What a notification says on Telegram. An operation's notification is the one alert per operation
// (docs/notifications.md): the operation, its sites, each failed subtask with its message and a
// link to the operation detail, read from the operation itself when it is sent. Any other
// notification is its title, caption, text and link. All text goes in as segments: formatMessage
// escapes it.

const absolute = (link: string) => new URL(link, `${config.publicUrl}/`).toString();

/** The notification's own HTML as plain lines: our markup out, its entities decoded. */
export function htmlToLines(html: string): string[] {
  const text = html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h\d)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] as string,
    );
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

export async function operationLines(operationId: number, title: string): Promise<Line[]> {
  const op = await checkStore().operations.get(operationId);
  const link = absolute(`/operations/${operationId}`);
  if (!op) return [[{ text: title, bold: true }], [{ text: `Open operation ${operationId} in Patrol`, href: link }]];
  const [tasks, subtasks] = await Promise.all([
    checkStore().tasks.all({ scope: { operation_id: operationId } }),
    checkStore().subtasks.all({ scope: { operation_id: operationId } }),
  ]);
  const sites = await siteRefs([...new Set(tasks.map((t) => t.site_id))]);
  const siteName = (id: number) => sites.get(id)?.name ?? `site ${id}`;
  const failed = subtasks.filter((s) => s.status === RunStatus.values.Failed);
  const names = [...new Set(tasks.map((t) => siteName(t.site_id)))];
  const lines: Line[] = [
    [{ text: title, bold: true }],
    [`Sites (${names.length}): `, names.join(', ')],
    [
      `${op.task_total - op.task_failed} of ${op.task_total} site(s) passed; `,
      { text: `${failed.length} subtask(s) failed`, bold: failed.length > 0 },
    ],
    [{ text: `Open operation ${operationId} in Patrol`, href: link }],
  ];
  if (failed.length) lines.push([{ text: 'Failed subtasks:', bold: true }]);
  for (const s of failed)
    lines.push([
      '• ',
      { text: siteName(s.site_id), bold: true },
      ` · ${Process.label(s.process)} (${TestMode.label(s.mode)}): `,
      s.msg || 'no message',
    ]);
  return lines;
}

export async function notificationLines(n: StoredNotification): Promise<Line[]> {
  if (n.category === NotificationCategory.values.Operation && n.operation_id !== undefined)
    return operationLines(n.operation_id, n.title);
  const lines: Line[] = [[{ text: n.title, bold: true }]];
  if (n.caption) lines.push([n.caption]);
  for (const line of htmlToLines(n.content)) lines.push([line]);
  if (n.link) lines.push([{ text: 'Open in Patrol', href: absolute(n.link) }]);
  return lines;
}
