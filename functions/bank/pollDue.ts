import type { BankPollOutcome } from '../../shared/schemas/bank.js';
import { recordMetric } from '../lib/metrics.js';
import { isDueInstant } from './monitorSchedule.js';
import { type PollDeps, pollAccount } from './poll.js';
import type { PollMessage } from './pollMessage.js';

/** A message this late is dropped: a newer poll of the account is due or already ran. */
export const STALE_MESSAGE_MS = 60_000;
/** A message may arrive this early (DelaySeconds are whole seconds); the poller waits the rest. */
const EARLY_WAIT_MAX_MS = 1_500;

/** Process-wide watchers of poll lag (the bench's figures); empty in production. */
export const pollLagObservers: ((lagMs: number, message: PollMessage) => void)[] = [];

export interface DuePollDeps extends PollDeps {
  /** Called with how late the poll started after its due time (ms), for the bench. */
  onLag?: (lagMs: number, message: PollMessage) => void;
}

/**
 * Runs one scheduled poll: on its second, only while the account is enabled and the instant is
 * still one of its poll instants (a changed interval or range, or a disable, takes effect at the
 * next message, within one interval). The account is read once, with the poll's lease.
 */
export async function runDuePoll(deps: DuePollDeps, message: PollMessage): Promise<BankPollOutcome | undefined> {
  const early = message.due - deps.clock.now();
  if (early > 0 && early <= EARLY_WAIT_MAX_MS) await deps.clock.sleep(early);
  const lag = deps.clock.now() - message.due;
  if (lag > STALE_MESSAGE_MS) return undefined;
  const timeZone = await deps.timeZone();
  const outcome = await pollAccount(deps, {
    accountId: message.account_id,
    mode: 'poll',
    requireEnabled: true,
    lagMs: lag,
    timeZone,
    isDue: (account) => {
      if (!isDueInstant(account, message.due, timeZone)) return false;
      deps.onLag?.(lag, message);
      recordMetric('BankPollLag', lag);
      for (const observe of pollLagObservers) observe(lag, message);
      return true;
    },
  });
  return outcome.due === false ? undefined : outcome;
}
