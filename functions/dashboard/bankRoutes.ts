import { HEADERS } from '../../shared/envelope.js';
import { DashboardHoursQuery } from '../../shared/schemas/bankDashboard.js';
import { bankDashboard, deliveryDashboard } from '../bank/dashboard.js';
import { bankRuntime } from '../bank/runtime.js';
import { ValidationError } from '../lib/errors.js';
import { type Request, Router } from '../lib/http/router.js';

/** `?hours=`: 400 naming the field when it is not 1 to 720 whole hours. */
function hoursOf(req: Request): number {
  const parsed = DashboardHoursQuery.safeParse(req.query);
  if (!parsed.success) throw new ValidationError({ hours: parsed.error.issues[0]?.message ?? 'Invalid hours' });
  return parsed.data.hours;
}

/** The home page's bank and delivery panels (issue 26 items 4, 5), each answer with its read units. */
export const bankDashboardRouter = new Router()
  .get('/dashboard/bank', async (req) => {
    const { reply, rcu } = await bankDashboard(bankRuntime(), hoursOf(req));
    req.setHeader(HEADERS.consumedCapacity, String(rcu));
    return reply;
  })
  .get('/dashboard/delivery', async (req) => {
    const { reply, rcu } = await deliveryDashboard(bankRuntime(), hoursOf(req));
    req.setHeader(HEADERS.consumedCapacity, String(rcu));
    return reply;
  });
