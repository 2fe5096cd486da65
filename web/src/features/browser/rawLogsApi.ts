import { queryKeys } from '@/api/queryKeys';
import type { RawLog } from '@shared/schemas/checks';
import { queryOptions } from '@tanstack/react-query';
import { request } from '@/api/request';

/** Which raw log a dialog shows: its own id (Browser Log) or the check log it belongs to (the log tables). */
export type RawLogSource = { id: number } | { businessId: number };

/** One raw log, fetched when its dialog opens so the video and screenshot addresses are fresh. */
export const rawLogQuery = (source: RawLogSource) =>
  queryOptions({
    queryKey:
      'id' in source
        ? queryKeys.detail('rawLogs', source.id)
        : queryKeys.related('rawLogs', 'business', source.businessId),
    queryFn: ({ signal }) =>
      request<RawLog>({
        url: 'id' in source ? `/raw/logs/${source.id}` : `/raw/logs/business/${source.businessId}`,
        signal,
        failureTip: 'Load raw log failed.',
      }),
  });
