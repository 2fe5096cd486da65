import {
  type BankDashboard,
  CONSOLE_CALLS,
  consoleCall,
  type DeliveryDashboard,
  type Heatmap,
  type Scorecard,
  type ScorecardDays,
  type ScorecardRow,
  scorecardRows,
  type TimingPoint,
} from '@shared/schemas/dashboard';
import { queryOptions } from '@tanstack/react-query';
import { request } from '@/api/request';

// The home dashboard's reads (issue 26 item 5). Each panel has its own query, so one that fails
// or waits does not hold up the others; `refetchInterval` is the wall screen's 30 s.

export const DASHBOARD = 'dashboard';
const FAILED = 'Loading the dashboard failed.';

/** When the figures of an answer were read (epoch ms, this browser's clock), from its `age` header. */
export interface Aged {
  asOf?: number;
}

/**
 * A dashboard answer and when its figures were read: the API may serve one kept up to a few
 * minutes (docs/api.md "Kept answers"), and a panel says how old what it shows is.
 */
const get = async <T extends object>(url: string, signal: AbortSignal): Promise<T & Aged> => {
  let asOf: number | undefined;
  // A panel shows its own error state: no toast per panel per refresh.
  const data = await request<T>({
    url,
    signal,
    failureTip: FAILED,
    silent: true,
    onHeaders: (headers) => {
      const age = Number(headers.get('age'));
      if (headers.has('age') && Number.isFinite(age)) asOf = Date.now() - age * 1000;
    },
  });
  return { ...data, asOf };
};

export const scorecardQuery = (days: ScorecardDays, refetchInterval?: number) =>
  queryOptions({
    queryKey: [DASHBOARD, 'scorecard', days] as const,
    // Sent by columns (shared/schemas/dashboard.ts Scorecard); the panels read rows.
    queryFn: async ({ signal }): Promise<{ result: ScorecardRow[] } & Aged> => {
      const card = await get<{ result: Scorecard }>(
        consoleCall('/dashboard/scorecard', CONSOLE_CALLS.scorecard(days)),
        signal,
      );
      return { result: scorecardRows(card.result), asOf: card.asOf };
    },
    refetchInterval,
  });

export const heatmapQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: [DASHBOARD, 'heatmap', 90] as const,
    queryFn: ({ signal }) => get<{ result: Heatmap }>(consoleCall('/dashboard/heatmap', CONSOLE_CALLS.heatmap), signal),
    refetchInterval,
  });

export const timingsQuery = (siteId: number, days: ScorecardDays, refetchInterval?: number) =>
  queryOptions({
    queryKey: [DASHBOARD, 'timings', siteId, days] as const,
    queryFn: ({ signal }) =>
      get<{ result: TimingPoint[] }>(consoleCall('/dashboard/timings', CONSOLE_CALLS.timings(siteId, days)), signal),
    refetchInterval,
  });

export const bankQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: [DASHBOARD, 'bank', 24] as const,
    queryFn: ({ signal }) => get<BankDashboard>(consoleCall('/dashboard/bank', CONSOLE_CALLS.bank), signal),
    refetchInterval,
    retry: false,
  });

export const deliveryQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: [DASHBOARD, 'delivery', 24] as const,
    queryFn: ({ signal }) => get<DeliveryDashboard>(consoleCall('/dashboard/delivery', CONSOLE_CALLS.delivery), signal),
    refetchInterval,
    retry: false,
  });
