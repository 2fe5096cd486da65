import type { BankPollOutcome } from '../../shared/schemas/bank.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { Clock } from './clock.js';
import { isDueInstant } from './monitorSchedule.js';
import { type PollDeps, pollAccount } from './poll.js';
import type { PollMessage } from './pollMessage.js';
import { recordMetric } from '../lib/metrics.js';

/** A message this late is dropped: a newer poll of the account is due or already ran. */
export const STALE_MESSAGE_MS = 60_000;
/** A message may arrive this early (DelaySeconds are whole seconds); the poller waits the rest. */
const EARLY_WAIT_MAX_MS = 1_500;

/** Process-wide watchers of poll lag (the bench's figures); empty in production. */
export const pollLagObservers: ((lagMs: number, message: PollMessage) => void)[] = [];

export interface DuePollDeps extends PollDeps {
  clock: Clock;
  timeZone?: () => Promise<string>;
  /** Called with how late the poll started after its due time (ms), for the bench. */
  onLag?: (lagMs: number, message: PollMessage) => void;
}

/**
 * Runs one scheduled poll: on its second, only while the account is enabled and the instant is
 * still one of its poll instants (a changed interval or range, or a disable, takes effect at the
 * next message, within one interval).
 */
export async function runDuePoll(deps: DuePollDeps, message: PollMessage): Promise<BankPollOutcome | undefined> {
  const early = message.due - deps.clock.now();
  if (early > 0 && early <= EARLY_WAIT_MAX_MS) await deps.clock.sleep(early);
  const lag = deps.clock.now() - message.due;
  if (lag > STALE_MESSAGE_MS) return undefined;
  const account = await deps.store.getAccount(message.account_id);
  if (!account) return undefined;
  const timeZone = await (deps.timeZone ?? (async () => (await getSystemConfig()).time_zone))();
  if (!isDueInstant(account, message.due, timeZone)) return undefined;
  deps.onLag?.(lag, message);
  recordMetric('BankPollLag', lag);
  for (const observe of pollLagObservers) observe(lag, message);
  return pollAccount(deps, { accountId: message.account_id, mode: 'poll', requireEnabled: true });
}
