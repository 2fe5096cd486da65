import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { AUTO_REFRESH_MS } from '@/app/constants';
import { HEADERS } from '@shared/envelope';
import type { ListQuery, ListResult } from '@shared/listQuery';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { PageVisits } from './pageVisits';
import type { Resource } from './types';

export interface UseListOptions {
  /** Refetch every 5 s (spec section 9). */
  autoRefresh?: boolean;
  /** False holds the request, e.g. while the keyword is too short. */
  enabled?: boolean;
}

/** One list query of a resource: key `queryKeys.list` (`[name, 'list', params]`); rows stay visible while the next page loads. */
export function useList<T>(
  resource: Pick<Resource<T>, 'name' | 'endpoint' | 'failureTip'>,
  query: ListQuery,
  options: UseListOptions = {},
) {
  const queryKey = queryKeys.list(resource.name, query);
  const params = queryKey[2];
  const visits = useRef(new PageVisits()).current;
  return useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const { page, ...rest } = params;
      const same = JSON.stringify(rest);
      const jump = visits.isJump(same, Number(page));
      const data = await request<ListResult<T>>({
        method: 'GET',
        url: resource.endpoint,
        params,
        signal,
        failureTip: resource.failureTip,
        // The 5 s poll would otherwise flash the top loading bar forever.
        skipLoading: options.autoRefresh,
        headers: jump ? { [HEADERS.listJump]: '1' } : undefined,
      });
      visits.shown(same, Number(page));
      return data;
    },
    placeholderData: keepPreviousData,
    refetchInterval: options.autoRefresh ? AUTO_REFRESH_MS : false,
    enabled: options.enabled ?? true,
  });
}
