import { queryKeys } from '@/api/queryKeys';
import { OperationAction, type OperationActionValue, RunStatus } from '@shared/enums';
import type { Operation, Task } from '@shared/schemas/checks';
import { queryOptions } from '@tanstack/react-query';
import { request } from '@/api/request';
import { AUTO_REFRESH_MS } from '@/app/constants';
import { t } from '@/i18n';

export interface OperationWithTasks {
  operation: Operation;
  tasks: Task[];
}

/** Pending and Running operations still change on the server; the page follows them. */
export const isOperationOpen = (op: Pick<Operation, 'status'> | undefined): boolean =>
  op?.status === RunStatus.values.Pending || op?.status === RunStatus.values.Running;

export const operationTasksQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail('operations', id),
    queryFn: ({ signal, client, queryKey }) =>
      request<OperationWithTasks>({
        url: `/operations/${id}/tasks`,
        signal,
        failureTip: 'Get operation failed.',
        // Reloads (the 5 s poll, the refresh button) show on the page, not in the top loading bar.
        skipLoading: client.getQueryData(queryKey) !== undefined,
      }),
    refetchInterval: (query) => (isOperationOpen(query.state.data?.operation) ? AUTO_REFRESH_MS : false),
    staleTime: 0,
  });

const pauseTips = { success: 'Pause operation {id} success.', failure: 'Pause operation {id} failed.' };
const resumeTips = { success: 'Resume operation {id} success.', failure: 'Resume operation {id} failed.' };
const tips = (action: OperationActionValue) => (action === OperationAction.values.Pause ? pauseTips : resumeTips);

/** Pause holds every pending task; resume runs the paused ones again. */
export const runOperationAction = (id: number, action: OperationActionValue) =>
  request<{ operation: Operation; changed: number }>({
    method: 'POST',
    url: `/operations/${id}/action`,
    data: { action },
    successTip: t(tips(action).success, { id }),
    failureTip: t(tips(action).failure, { id }),
  });
