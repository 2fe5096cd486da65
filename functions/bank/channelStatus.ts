import { BankNotificationCategory, NotifyStatus, PushStatus } from '../../shared/enums.js';
import type { NotifyStatusValue, PushStatusValue } from '../../shared/schemas/bank.js';
import { ConditionFailedError, type FollowUp } from '../lib/db/entity.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { logger } from '../lib/logger.js';
import { type BankStore, bankStore, type StoredBankNotification } from './store.js';

// The statuses of a bank notification's channels (spec section 3, issue 15; docs/notifications.md
// "Statuses"). Each channel keeps the notify status of its attempts (notify_webhook / notify_tg:
// why it did or did not push) and the push status that follows from it (status_webhook /
// status_tg, with pushed_*_at); the notification's notify_status sums both up, and the statement
// or balance stat it is about holds the same value. Every write of a channel goes through here, so
// the push status can never disagree with the notify status.

const N = NotifyStatus.values;
const P = PushStatus.values;
/** Writes of a channel, tried again when the other channel settled at the same moment. */
const SETTLE_TRIES = 3;

export type Channel = 'webhook' | 'tg';

/**
 * Pushed once delivered; Pending while the channel is still to be pushed (queued, retrying, or
 * Failed: a failed channel has not been pushed, and a Replay may push it); NoNeed when it is not
 * a target or will not be pushed for a settled reason (NO Target, Channel Closed, Duplication).
 */
export function pushStatusOf(notify: NotifyStatusValue): PushStatusValue {
  if (notify === N.Success) return P.Pushed;
  if (notify === N.Pending || notify === N.Failed) return P.Pending;
  return P.NoNeed;
}

/** The notification's own notify status: Pending while a channel is, else Success when one succeeded, else the first outcome. */
export function overallNotifyStatus(webhook: NotifyStatusValue, tg: NotifyStatusValue): NotifyStatusValue {
  const channels = [webhook, tg].filter((s) => s !== N.NoNeed);
  if (!channels.length) return N.NoNeed;
  if (channels.includes(N.Pending)) return N.Pending;
  if (channels.includes(N.Success)) return N.Success;
  return channels[0] as NotifyStatusValue;
}

export type ChannelFields = Pick<
  StoredBankNotification,
  | 'status_webhook'
  | 'pushed_webhook_at'
  | 'notify_webhook'
  | 'status_tg'
  | 'pushed_tg_at'
  | 'notify_tg'
  | 'notify_status'
>;

/** Both channels of a new notification: Pending where it is to be pushed, else No Need. */
export function newChannelFields(targets: { webhook: NotifyStatusValue; tg: NotifyStatusValue }): ChannelFields {
  return {
    status_webhook: pushStatusOf(targets.webhook),
    pushed_webhook_at: null,
    notify_webhook: targets.webhook,
    status_tg: pushStatusOf(targets.tg),
    pushed_tg_at: null,
    notify_tg: targets.tg,
    notify_status: overallNotifyStatus(targets.webhook, targets.tg),
  };
}

/**
 * The write that moves one channel to `notify` (`pushedAt` when it was delivered), with the
 * notification's notify status as it is after it given the other channel's current status.
 */
export function channelPatch(
  n: Pick<StoredBankNotification, 'notify_webhook' | 'notify_tg'>,
  channel: Channel,
  notify: NotifyStatusValue,
  pushedAt: number | null = null,
): Partial<ChannelFields> {
  const at = notify === N.Success ? pushedAt : null;
  return channel === 'webhook'
    ? {
        notify_webhook: notify,
        status_webhook: pushStatusOf(notify),
        pushed_webhook_at: at,
        notify_status: overallNotifyStatus(notify, n.notify_tg),
      }
    : {
        notify_tg: notify,
        status_tg: pushStatusOf(notify),
        pushed_tg_at: at,
        notify_status: overallNotifyStatus(n.notify_webhook, notify),
      };
}

/**
 * The attempt a settling ends (`expected`: the notification's `webhook_attempt` / `tg_attempt` as
 * the attempt read it, absent the first time) and the one that may run next: the write holds only
 * while the chain is still at `expected`, so of two copies of one attempt (a message given twice)
 * one settles it.
 */
export interface AttemptGuard {
  expected: number | undefined;
  next: number;
}

/** Where each channel's chain of attempts is (entities.ts). */
export const attemptField = { webhook: 'webhook_attempt', tg: 'tg_attempt' } as const satisfies Record<
  Channel,
  keyof StoredBankNotification
>;

/** Another copy of the same attempt settled it first: this one records nothing (docs/notifications.md). */
export class AttemptSettledError extends Error {
  override name = 'AttemptSettledError';
}

/**
 * Moves one channel to `notify` (`pushedAt` when it was delivered), and the notification's notify
 * status with it, which the statement or balance stat it is about copies (notified_at: when the
 * first channel was pushed). The webhook and the chat settle in separate messages that may run at
 * once: the write expects the other channel as it was read and, when that moved meanwhile, reads it
 * again, so notify_status always counts both. What the settling sets in motion (the copy on the
 * statement or balance stat, and the caller's `followUps`: the attempt's history row, the claim's
 * end...) is recorded in the same write (lib/db/outbox.ts), so a delivery that dies after it
 * leaves them to the follow-up sweeper. An attempt's settling passes its `attempt` guard:
 * the chain moves on in the same write, or AttemptSettledError when another copy moved it first.
 */
export async function settleChannel(
  store: Pick<BankStore, 'updateNotification' | 'getNotification'>,
  n: StoredBankNotification,
  channel: Channel,
  notify: NotifyStatusValue,
  pushedAt: number | null = null,
  followUps: FollowUp[] = [],
  attempt?: AttemptGuard,
): Promise<StoredBankNotification> {
  let current = n;
  let updated: StoredBankNotification | undefined;
  for (let tries = 1; !updated; tries++) {
    const other = channel === 'webhook' ? { notify_tg: current.notify_tg } : { notify_webhook: current.notify_webhook };
    const patch = {
      ...channelPatch(current, channel, notify, pushedAt),
      ...(attempt ? { [attemptField[channel]]: attempt.next } : {}),
    };
    const business = businessStatusOf({ ...current, ...patch });
    try {
      updated = await store.updateNotification(
        n.id,
        patch,
        { ...other, ...(attempt ? { [attemptField[channel]]: attempt.expected } : {}) },
        current,
        [...followUps, ...(business ? [business] : [])],
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || tries >= SETTLE_TRIES) throw error;
      const fresh = await store.getNotification(n.id);
      if (!fresh) throw error;
      if (attempt && fresh[attemptField[channel]] !== attempt.expected)
        throw new AttemptSettledError(`notification ${n.id}: attempt ${attempt.next - 1} was settled by another copy`);
      current = fresh;
    }
  }
  return updated;
}

/** The statement's or balance stat's copy of a notification's notify status, as a follow-up of its settling. */
function businessStatusOf(n: StoredBankNotification): FollowUp | undefined {
  const { Statement, Balance } = BankNotificationCategory.values;
  if (n.category !== Statement && n.category !== Balance) return undefined;
  const pushed = [n.pushed_webhook_at, n.pushed_tg_at].filter((at): at is number => at !== null);
  return setBusinessStatus({
    category: n.category,
    id: n.business_id,
    notify_status: n.notify_status,
    notified_at: n.notify_status === N.Success && pushed.length ? Math.min(...pushed) : null,
  });
}

/** Follow-up of a settling: the row the notification is about copies its notify status (a set: applied twice, the same). */
const setBusinessStatus = defineFollowUp(
  'bank.business_status',
  async (a: { category: number; id: number; notify_status: NotifyStatusValue; notified_at: number | null }) => {
    try {
      await bankStore().setBusinessStatus(a.category, a.id, {
        notify_status: a.notify_status,
        notified_at: a.notified_at,
      });
    } catch (error) {
      // The row is gone (or never was, for a notification written on its own): nothing to copy to.
      if (!(error instanceof ConditionFailedError)) throw error;
      logger.warn('could not set the notify status of the row', { category: a.category, id: a.id });
    }
  },
);
