import type { MaintenanceBodyInput, MaintenanceWindow } from '@shared/schemas/maintenance';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { t } from '@/i18n';

/** The list's name: its query key root and its settings' storage key. */
export const MAINTENANCE = 'maintenance';

/** The windows also show on the rules' calendar (its key is under the rules' root). */
export const refreshMaintenance = (client: QueryClient) =>
  Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.all(MAINTENANCE) }),
    client.invalidateQueries({ queryKey: ['autoCheckRules', 'calendar'] }),
  ]).then(() => undefined);

/** Every live site's id and name, for the window's site picker. */
export const siteNamesQuery = queryOptions({
  queryKey: ['sites', 'names'] as const,
  queryFn: ({ signal }) =>
    request<{ id: number; name: string }[]>({ url: '/sites/all', signal, failureTip: 'Fetch sites failed.' }),
  staleTime: 30_000,
});

export function saveMaintenance(id: number | null, body: MaintenanceBodyInput): Promise<MaintenanceWindow> {
  const name = String(body.name ?? '').trim();
  return request<MaintenanceWindow>({
    method: id === null ? 'POST' : 'PUT',
    url: id === null ? '/maintenance' : `/maintenance/${id}`,
    data: body,
    successTip: t('Save window {name} success.', { name }),
    failureTip: t('Save window {name} failed.', { name }),
  });
}

export function setMaintenanceEnabled(w: Pick<MaintenanceWindow, 'id'>, enabled: boolean): Promise<MaintenanceWindow> {
  return request<MaintenanceWindow>({
    method: 'PUT',
    url: `/maintenance/${w.id}`,
    data: { enabled },
    successTip: t('Update {field} success', { field: 'enabled' }),
    failureTip: 'Update enable failed.',
  });
}

export function deleteMaintenance(w: Pick<MaintenanceWindow, 'id' | 'name'>): Promise<null> {
  return request<null>({
    method: 'DELETE',
    url: `/maintenance/${w.id}`,
    successTip: t('Delete window {name} success.', { name: w.name }),
    failureTip: t('Delete window {name} failed.', { name: w.name }),
  });
}
