import { queryKeys } from '@/api/queryKeys';
import { PushChannel } from '@shared/enums';
import type { Notification } from '@shared/schemas/notifications';
import { queryOptions } from '@tanstack/react-query';
import { request } from '@/api/request';

/**
 * Opening a notification reads it through the mark-read call, which answers with the notification
 * (spec section 4); reading it again keeps the first read time, so a refetch is harmless. A viewer
 * changes nothing, not even the read mark: it reads the notification as it is.
 */
export const notificationQuery = (id: number, markRead = true) =>
  queryOptions({
    queryKey: queryKeys.detail('notifications', id),
    queryFn: ({ signal }) =>
      request<Notification>({
        method: markRead ? 'PUT' : 'GET',
        url: `/notifications/${id}`,
        signal,
        failureTip: 'Get Notification failed',
      }),
    staleTime: 0,
  });

/** Sends a notification to the chat channel (TG). */
export const sendToTg = (id: number) =>
  request<unknown>({
    method: 'POST',
    url: `/notifications/${id}/notify`,
    data: { channel: PushChannel.values.TG },
    successTip: 'Send TG Notification Success.',
    failureTip: 'Send TG Notification Failed.',
  });

/** New unread notifications created after `since` (ms), for the web-push toast; kept out of the loading bar. */
export const fetchWebNotifications = (since: number, signal?: AbortSignal) =>
  request<Notification[]>({
    url: '/notifications/web',
    params: { since: String(since) },
    signal,
    skipLoading: true,
    // A missed poll is retried 5 s later; a toast every 5 s while offline would bury the screen.
    silent: true,
  });
