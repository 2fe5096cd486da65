import type { SystemConfig, SystemConfigState } from '@shared/schemas/systemConfig';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '@/api/queryClient';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** GET /system-config: the document every signed-in user's shell holds (spec section 3). */
export const systemConfigQuery = {
  queryKey: queryKeys.single('systemConfig'),
  queryFn: () => request<SystemConfig>({ url: '/system-config', silent: true }),
  // The server caches it for 5 s; a minute keeps an open console in step without a stream of calls.
  refetchInterval: 60_000,
};

/** The system config (time zone, RECHARGE_CONFIG and its option lists) for any screen. */
export function useSystemConfig() {
  return useQuery(systemConfigQuery);
}

/** GET /super/system-config: the document with its version, for the Config page. */
export const superSystemConfigQuery = {
  queryKey: queryKeys.single('superSystemConfig'),
  queryFn: () => request<SystemConfigState>({ url: '/super/system-config', failureTip: 'Fetch config failed.' }),
};

/** After a save or restore: the page, its versions table and the shell's copy read again. */
function afterConfigChange<T>(state: T): Promise<T> {
  const stale = ['superSystemConfig', 'systemConfigVersions', 'systemConfig'].map(queryKeys.all);
  return Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => state);
}

/** POST /super/system-config: a refused field comes back in `extra` under its dotted path. */
export const saveSystemConfig = (document: SystemConfig) =>
  request<SystemConfigState>({
    method: 'POST',
    url: '/super/system-config',
    data: document,
    successTip: 'Save config success',
    failureTip: 'Save config failed',
  }).then(afterConfigChange);

/** POST /super/system-config/versions/{n}/restore: brings version n back as a new version. */
export const restoreSystemConfig = (version: number) =>
  request<SystemConfigState>({
    method: 'POST',
    url: `/super/system-config/versions/${version}/restore`,
    successTip: 'Restore version success',
    failureTip: 'Restore version failed',
  }).then(afterConfigChange);
