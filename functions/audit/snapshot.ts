import { isSecretKey, redact } from '../lib/logger.js';

/** Longest snapshot an audit row keeps; a bigger one is cut (a row must stay far below 400 KB). */
export const SNAPSHOT_MAX_CHARS = 8_000;

/** Any key naming a key, on top of the logger's secret names (`key`, `bot_key`, `hmac_key`...). */
const KEYISH = /key/i;

function drop(value: unknown, depth: number): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => drop(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !isSecretKey(k) && !KEYISH.test(k))
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
