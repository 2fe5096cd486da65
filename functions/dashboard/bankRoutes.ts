import { HEADERS } from '../../shared/envelope.js';
import { CONSOLE_CALLS, DASHBOARD_SHARED_MS, DashboardHoursQuery } from '../../shared/schemas/dashboard.js';
import { bankDashboard, deliveryDashboard } from '../bank/dashboard.js';
import { bankRuntime } from '../bank/runtime.js';
import { Router } from '../lib/http/router.js';

const hoursOf = (queryData: unknown) => (queryData as DashboardHoursQuery).hours;

/** The home page's bank and delivery panels (issue 26 items 4, 5), each answer with its read units. */
export const bankDashboardRouter = new Router()
  .get(
    '/dashboard/bank',
    async (req) => {
      const { reply, rcu } = await bankDashboard(bankRuntime(), hoursOf(req.queryData));
      req.setHeader(HEADERS.consumedCapacity, String(rcu));
      return reply;
    },
    { query: DashboardHoursQuery, sharedFor: DASHBOARD_SHARED_MS, refreshAhead: [CONSOLE_CALLS.bank] },
  )
  .get(
    '/dashboard/delivery',
    async (req) => {
      const { reply, rcu } = await deliveryDashboard(bankRuntime(), hoursOf(req.queryData));
      req.setHeader(HEADERS.consumedCapacity, String(rcu));
      return reply;
    },
    { query: DashboardHoursQuery, sharedFor: DASHBOARD_SHARED_MS, refreshAhead: [CONSOLE_CALLS.delivery] },
  );
