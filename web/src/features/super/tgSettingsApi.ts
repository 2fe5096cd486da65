import type {
  TelegramCategory,
  TelegramSettingsInput,
  TelegramSettingsView,
  TelegramTestReply,
} from '@shared/schemas/telegram';
import { request } from '@/api/request';

/** GET /super/notification/tg: the settings, the token only as a masked hint. */
export const tgSettingsQuery = {
  queryKey: ['tgSettings', 'detail'] as const,
  queryFn: () =>
    request<TelegramSettingsView>({ url: '/super/notification/tg', failureTip: 'Fetch TG settings failed.' }),
};

/** PUT /super/notification/tg: `bot_token` only when the operator typed a new one. */
export const saveTgSettings = (settings: TelegramSettingsInput) =>
  request<TelegramSettingsView>({
    method: 'PUT',
    url: '/super/notification/tg',
    data: settings,
    successTip: 'Save TG settings success.',
    failureTip: 'Save TG settings failed.',
  });

/** POST /super/notification/tg/test: Telegram's answer comes back even when it refused; the page shows it. */
export const sendTgTest = (category: TelegramCategory) =>
  request<TelegramTestReply>({
    method: 'POST',
    url: '/super/notification/tg/test',
    data: { category },
    failureTip: 'Send test message failed.',
  });
