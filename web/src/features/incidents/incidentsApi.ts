import type { IncidentActionBody, IncidentActionReply, IncidentDetail } from '@shared/schemas/incidents';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** The list's name: its query key root and its settings' storage key. */
export const INCIDENTS = 'incidents';

export const incidentQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail(INCIDENTS, id),
    queryFn: ({ signal }) =>
      request<IncidentDetail>({ url: `/incidents/${id}`, signal, failureTip: 'Fetch incident failed.' }),
  });

export const refreshIncidents = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: queryKeys.all(INCIDENTS) });

const DONE: Record<IncidentActionBody['action'], string> = {
  acknowledge: 'Acknowledged.',
  snooze: 'Snoozed.',
  rerun: 'Check success, go operation menu to check.',
  maintenance: 'Maintenance started for 1 h.',
  poll: 'Polled.',
  disable: 'Account disabled.',
};

/** Acknowledge, snooze, re-run or start maintenance: what the Telegram buttons do, from the console. */
export function actOnIncident(id: number, body: IncidentActionBody): Promise<IncidentActionReply> {
  return request<IncidentActionReply>({
    method: 'POST',
    url: `/incidents/${id}/action`,
    data: body,
    successTip: DONE[body.action],
    failureTip: 'Operation failed, please contact IT.',
  });
}
