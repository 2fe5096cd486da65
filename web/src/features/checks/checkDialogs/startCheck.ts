import type { Operation } from '@shared/schemas/checks';
import { request } from '@/api/request';
import type { PointModes } from '../CheckpointGrid';

/** POST /sites/{id}/check: one site now; answers the operation it created. */
export function startSiteCheck(siteId: number, points: PointModes[]): Promise<Operation> {
  return request<Operation>({
    method: 'POST',
    url: `/sites/${siteId}/check`,
    data: { points },
    successTip: 'Operation success, go operation menu to check.',
    failureTip: 'Operation failed, please contact IT.',
  });
}

/** POST /sites/check: several sites in one operation. */
export function startBatchCheck(siteIds: number[], points: PointModes[]): Promise<Operation> {
  return request<Operation>({
    method: 'POST',
    url: '/sites/check',
    data: { sites: siteIds, points },
    successTip: 'Check success, go operation menu to check.',
    failureTip: 'Check failed, please contact IT.',
  });
}
