import { queryKeys } from '@/api/queryKeys';
import type { CheckResult, SubtaskComparison, Task } from '@shared/schemas/checks';
import { queryOptions } from '@tanstack/react-query';
import { request } from '@/api/request';

/** A task with its subtasks grouped by process (the task Detail dialog, the operation detail's rows). */
export const taskQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail('tasks', id),
    queryFn: ({ signal }) => request<Task>({ url: `/check/tasks/${id}`, signal, failureTip: 'Fetch task failed.' }),
  });

/** The checks run for one subtask, oldest first (one tab each in the check results dialog). */
export const checkResultsQuery = (subtaskId: number) =>
  queryOptions({
    queryKey: queryKeys.related('subtasks', 'check-results', subtaskId),
    queryFn: async ({ signal }) => {
      const rows = await request<CheckResult[]>({
        url: `/check/subtasks/${subtaskId}/check-results`,
        signal,
        failureTip: 'Fetch related checks failed.',
      });
      return [...rows].sort((a, b) => a.created_at - b.created_at);
    },
  });

/** How long something ran: until its end, or until now while it still runs; null before it starts. */
export function durationMs(start: number | null, end: number | null, now = Date.now()): number | null {
  if (!start) return null;
  return Math.max(0, (end ?? now) - start);
}

/** A subtask beside the last Done run of its (site, process, mode) (the compare view). */
export const comparisonQuery = (subtaskId: number) =>
  queryOptions({
    queryKey: queryKeys.related('subtasks', 'compare', subtaskId),
    queryFn: ({ signal }) =>
      request<SubtaskComparison>({
        url: `/check/subtasks/${subtaskId}/compare`,
        signal,
        failureTip: 'Fetch related checks failed.',
      }),
  });
