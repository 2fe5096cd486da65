// The login page's side of single sign-on's return: the callback sends the browser back to the
// login page with `sso_code` (a one-time code, redeemed here at once) or `sso_error` (an error
// code). Both leave the address right away, so a reload or the history never replays them.
import { ErrorCode } from '@shared/envelope';
import type { LoginAnswer } from '@shared/schemas/auth';
import { SSO_QUERY } from '@shared/schemas/sso';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isApiError } from '@/api/ApiError';
import { textForCode } from '@/api/errorText';
import { redeemSsoCode } from './ssoApi';

/** The refusals the login page explains; any other code reads as SSO's generic failure. */
const SHOWN: ReadonlySet<number> = new Set([
  ErrorCode.SsoNotConfigured,
  ErrorCode.SsoFailed,
  ErrorCode.SsoUnknownUser,
  ErrorCode.SsoCodeInvalid,
  ErrorCode.SsoProviderUnavailable,
  ErrorCode.TooManyRequests,
]);

/** The text of an SSO refusal (an English key of the registry, translated by the page). */
export function ssoErrorText(code: number | undefined): string {
  if (code === ErrorCode.Forbidden) return 'This account is disabled, please contact your administrator';
  const shown = code !== undefined && SHOWN.has(code) ? code : ErrorCode.SsoFailed;
  return textForCode(shown) ?? 'Single sign-on failed, please try again.';
}

/**
 * Redeems a returned code once and hands its answer to `onAnswer` (what the password's first step
 * answers: the token or the next step), or the text of a returned or redeemed refusal to `onError`.
 * True while the code is being redeemed.
 */
export function useSsoReturn(onAnswer: (answer: LoginAnswer) => void, onError: (text: string) => void): boolean {
  const [search, setSearch] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const code = search.get(SSO_QUERY.code);
  const failed = search.get(SSO_QUERY.error);
  const handled = useRef<string | null>(null);
  // The page's handlers change at every render; the effect runs for a new code only.
  const handlers = useRef({ onAnswer, onError });
  handlers.current = { onAnswer, onError };

  useEffect(() => {
    if (!code && !failed) return;
    const key = `${code}|${failed}`;
    // StrictMode runs effects twice: a code is single-use.
    if (handled.current === key) return;
    handled.current = key;
    const rest = new URLSearchParams(search);
    rest.delete(SSO_QUERY.code);
    rest.delete(SSO_QUERY.error);
    setSearch(rest, { replace: true });
    if (failed) {
      handlers.current.onError(ssoErrorText(Number(failed) || undefined));
      return;
    }
    setBusy(true);
    redeemSsoCode(code as string)
      .then((answer) => handlers.current.onAnswer(answer))
      .catch((err) =>
        handlers.current.onError(ssoErrorText(isApiError(err) && typeof err.code === 'number' ? err.code : undefined)),
      )
      .finally(() => setBusy(false));
  }, [code, failed, search, setSearch]);

  return busy;
}
