import { isSecretKey, redact } from '../lib/logger.js';

/** Longest snapshot an audit row keeps; a bigger one is cut (a row must stay far below 400 KB). */
export const SNAPSHOT_MAX_CHARS = 8_000;

/**
 * Any key naming a key, on top of the logger's secret names (`key`, `bot_key`, `hmac_key`...), and
 * what signs a user in (docs/sign-in.md): a sign-in ticket, a TOTP enrolment's `otpauth_url` (it
 * holds the secret), recovery codes.
 */
const KEYISH = /key|ticket|otpauth|recovery_codes/i;

/** A one-time code sent as text (a TOTP or recovery code, a Telegram link code); numeric codes are status codes. */
const isTypedCode = (k: string, v: unknown) => k === 'code' && typeof v === 'string';

function drop(value: unknown, depth: number): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => drop(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => !isSecretKey(k) && !KEYISH.test(k) && !isTypedCode(k, v))
      .map(([k, v]) => [k, drop(v, depth + 1)]),
  );
}

/**
 * A request body or reply as the audit trail keeps it: JSON, with every field named like a
 * password, key, token or secret left out at any depth (not masked: the row should not even
 * say which secret-shaped fields were sent), after the logger's own redaction as a second net.
 */
export function auditSnapshot(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = JSON.stringify(drop(redact(value), 0));
  if (text === undefined) return undefined;
  return text.length > SNAPSHOT_MAX_CHARS ? `${text.slice(0, SNAPSHOT_MAX_CHARS)}…` : text;
}
