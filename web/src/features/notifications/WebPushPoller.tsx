import type { Notification } from '@shared/schemas/notifications';
import { type ReactNode, useEffect } from 'react';
import { AUTO_REFRESH_MS } from '@/app/constants';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { PUSH_TOASTS_OPEN_MAX, pushToast } from '@/app/toast';
import { t } from '@/i18n';
import { fetchWebNotifications } from './notificationsApi';

/** Where the poll resumes after a reload, so a notification is pushed once per browser, not per page load. */
export const WEB_PUSH_SINCE_KEY = 'patrol.webPush.since';
/** More new notifications than stay open at once, in one poll, are pushed as one summary toast. */
export const PUSH_ONE_BY_ONE_MAX = PUSH_TOASTS_OPEN_MAX;
/** On a first visit, notifications younger than this still count as new. */
export const WEB_PUSH_LOOKBACK_MS = 60_000;

function storedSince(now: number): number {
  let stored = 0;
  try {
    stored = Number(localStorage.getItem(WEB_PUSH_SINCE_KEY)) || 0;
  } catch {
    // Private mode: start from the lookback.
  }
  return Math.max(stored, now - WEB_PUSH_LOOKBACK_MS);
}

function storeSince(since: number): void {
  try {
    localStorage.setItem(WEB_PUSH_SINCE_KEY, String(since));
  } catch {
    // Private mode: the next page load starts from the lookback again.
  }
}

/**
 * Polls for new unread notifications every 5 s and shows each once in the bottom-right push toast,
 * whose Open link leads to the notification. Mounted once in the shell, so only signed-in users poll.
 */
export function WebPushPoller({ intervalMs = AUTO_REFRESH_MS }: { intervalMs?: number }): ReactNode {
  useEffect(() => {
    let since = storedSince(Date.now());
    const shown = new Set<number>();
    let busy = false;
    let stopped = false;
    const controller = new AbortController();

    const poll = async () => {
      // A slow answer must not overlap the next poll, or one notification could be pushed twice.
      if (busy) return;
      busy = true;
      try {
        const fresh: Notification[] = await fetchWebNotifications(since, controller.signal);
        if (stopped) return;
        const news: Notification[] = [];
        for (const n of [...fresh].sort((a, b) => a.created_at - b.created_at)) {
          since = Math.max(since, n.created_at);
          if (shown.has(n.id)) continue;
          shown.add(n.id);
          news.push(n);
        }
        // A running check finishes a subtask every few seconds; past a handful at once, one toast
        // that leads to the list beats a column of toasts that stay open over the page.
        if (news.length > PUSH_ONE_BY_ONE_MAX) {
          const latest = news[news.length - 1];
          pushToast(t('{count} new notifications', { count: news.length }), latest.title, () =>
            navigateTo(pathOf('notifications')),
          );
        } else {
          for (const n of news) {
            pushToast(n.title, n.caption, () => navigateTo(pathOf('notificationDetail', { notificationID: n.id })));
          }
        }
        storeSince(since);
      } catch {
        // Silent: the next poll tries again.
      } finally {
        busy = false;
      }
    };

    void poll();
    const timer = setInterval(() => void poll(), intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
      controller.abort();
    };
  }, [intervalMs]);
  return null;
}
