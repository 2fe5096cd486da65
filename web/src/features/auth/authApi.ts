import { queryKeys } from '@/api/queryKeys';
import type { Captcha, LoginAnswer, Profile } from '@shared/schemas/auth';
import type { TelegramLinkCode, TelegramLinkView } from '@shared/schemas/telegramBot';
import { request } from '@/api/request';

export interface LoginInput {
  username: string;
  password: string;
  captcha?: { id: string; answer: string } | null;
}

/** Errors are hidden by default (spec section 7); the login page shows the ones a user can fix. */
export const login = (data: LoginInput) => request<LoginAnswer>({ method: 'POST', url: '/login', data, silent: true });

export const logout = () => request<unknown>({ method: 'POST', url: '/logout', silent: true });

export const fetchCaptcha = () => request<Captcha>({ url: '/captcha', silent: true });

export const profileQuery = {
  queryKey: queryKeys.single('profile'),
  queryFn: () => request<Profile>({ url: '/info' }),
};

export const changePassword = (data: { old_pwd: string; pwd: string }) =>
  request<unknown>({
    method: 'POST',
    url: '/pwd',
    data,
    successTip: 'Password update success, please login again.',
    failureTip: 'Password update failed.',
  });

/** The signed-in user's Telegram link (Settings). */
export const telegramLinkQuery = {
  queryKey: queryKeys.single('telegramLink'),
  queryFn: () => request<TelegramLinkView>({ url: '/telegram/link' }),
};

/** A one-time code to send to the bot as `/start <code>`. */
export const newTelegramLinkCode = () =>
  request<TelegramLinkCode>({ method: 'POST', url: '/telegram/link-code', failureTip: 'Could not get a link code.' });

export const unlinkTelegram = () =>
  request<TelegramLinkView>({
    method: 'DELETE',
    url: '/telegram/link',
    successTip: 'Telegram unlinked.',
    failureTip: 'Could not unlink Telegram.',
  });
