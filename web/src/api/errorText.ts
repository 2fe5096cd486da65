// The one place that turns a failure into the text a user reads (spec section 8).
import { errorByCode } from '@shared/errors';

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

export function textForStatus(status: number): string {
  return statusText[status] ?? NETWORK_TEXT;
}

export function textForCode(code: unknown): string | undefined {
  // The registry holds each code's default text next to its status, one definition for both sides.
  return typeof code === 'number' ? errorByCode(code)?.text : undefined;
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
