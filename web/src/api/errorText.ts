// The one place that turns a failure into the text a user reads (spec section 8).
import { ErrorCode } from '@shared/envelope';

export const TIMEOUT_TEXT = 'Timeout, try later.';
export const NETWORK_TEXT = 'Network error, try later.';
export const UNKNOWN_TEXT = 'Unknown error, try later.';

/** Status names for HTTP errors without a readable body; the spec maps them up to 405. */
const statusText: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

const codeText: Readonly<Record<number, string>> = {
  [ErrorCode.BadRequest]: 'Bad Request',
  [ErrorCode.Validation]: 'Invalid input.',
  [ErrorCode.MalformedJson]: 'Malformed request.',
  [ErrorCode.Unauthorized]: 'Please login first.',
  [ErrorCode.BadCredentials]: 'Wrong username or password.',
  [ErrorCode.CaptchaRequired]: 'Please input the captcha.',
  [ErrorCode.CaptchaWrong]: 'Wrong captcha.',
  [ErrorCode.Forbidden]: 'Permission denied.',
  [ErrorCode.NotFound]: 'Not found.',
  [ErrorCode.RouteNotFound]: 'Not found.',
  [ErrorCode.MethodNotAllowed]: 'Method not allowed.',
  [ErrorCode.Conflict]: 'Already exists.',
  [ErrorCode.PayloadTooLarge]: 'Request too large.',
  [ErrorCode.UnsupportedMediaType]: 'Unsupported content type.',
  [ErrorCode.TooManyRequests]: 'Too many requests, try later.',
  [ErrorCode.Internal]: 'Server error, try later.',
};

export function textForStatus(status: number): string {
  return statusText[status] ?? NETWORK_TEXT;
}

export function textForCode(code: unknown): string | undefined {
  return typeof code === 'number' ? codeText[code] : undefined;
}

/** A failure body: extra values (one per line), else msg, else the code's text, else unknown. */
export function textForBody(body: { code?: unknown; msg?: unknown; extra?: unknown }): string {
  const extra = body.extra;
  if (extra && typeof extra === 'object') {
    const lines = Object.values(extra as Record<string, unknown>)
      .filter((v) => v !== null && v !== undefined && v !== '')
      .map(String);
    if (lines.length) return lines.join('\n');
  } else if (typeof extra === 'string' && extra) {
    return extra;
  }
  if (typeof body.msg === 'string' && body.msg) return body.msg;
  return textForCode(body.code) ?? UNKNOWN_TEXT;
}
