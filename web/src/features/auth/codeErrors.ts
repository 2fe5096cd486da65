import { ErrorCode } from '@shared/envelope';
import { isApiError } from '@/api/ApiError';

/** The failures of a code (sign-in, enrolment, removal) a user can act on, as English keys. */
const CODE_ERRORS: Readonly<Record<number, string>> = {
  [ErrorCode.SecondFactorWrong]: 'Wrong code.',
  [ErrorCode.SecondFactorCodeUsed]: 'This code was used already, wait for the next one.',
  [ErrorCode.SignInTicketInvalid]: 'This sign-in has expired, please sign in again.',
  [ErrorCode.TotpNotStarted]: 'Start setting up the authenticator app first.',
  [ErrorCode.TotpAlreadyEnrolled]: 'An authenticator app is set up already.',
  [ErrorCode.FactorNotFound]: 'No authenticator app is set up.',
};

/** The text to show for a failed code call (an English key). */
export function codeErrorText(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong, try again.';
  if (error.status === 429) return 'Too many wrong codes, try again later.';
  const known = typeof error.code === 'number' ? CODE_ERRORS[error.code] : undefined;
  if (known) return known;
  if (error.extra?.code) return error.extra.code;
  return 'Something went wrong, try again.';
}

/** The sign-in's ticket is gone (expired, used, or the password changed): back to the password. */
export const ticketExpired = (error: unknown) => isApiError(error) && error.code === ErrorCode.SignInTicketInvalid;
