import { Logger } from '@aws-lambda-powertools/logger';

/** Keys whose values are secrets: never written to a log line, whatever the depth. */
const SECRET_KEY = /pwd|pass(word)?|secret|token|api_?key|authorization|captcha|jwt|cookie|private_?key|signing_?key/i;
export const REDACTED = '[redacted]';

/** Whether a field of this name holds a secret (the audit trail drops such fields altogether). */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** An Error as plain data, own fields included, so its fields go through redaction like any object's. */
function errorData(error: Error): Record<string, unknown> {
  const own = Object.fromEntries(Object.entries(error));
  return {
    ...own,
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(error.cause !== undefined ? { cause: error.cause } : {}),
  };
}

/** The user and password of an address (`https://user:pass@host/…`). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;

/** A text with the credentials of every address in it replaced. */
export const withoutUrlCredentials = (text: string): string => text.replace(URL_CREDENTIALS, `$1${REDACTED}@`);

/**
 * A copy of `value` with every secret-keyed field replaced, in nested objects, arrays and errors,
 * and every address's user and password taken out of its texts.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutUrlCredentials(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const source = value instanceof Error ? errorData(value) : (value as Record<string, unknown>);
  return Object.fromEntries(
    Object.entries(source).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1)]),
  );
}

/**
 * JSON.stringify replacer of every log line: it sees every key at every depth (the log's own
 * attributes, appended keys, nested objects, arrays), so no call site has to remember redact().
 */
function redactingReplacer(key: string, value: unknown): unknown {
  if (key && SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === 'string') return withoutUrlCredentials(value);
  // Errors are turned into data here so their own fields pass through this replacer too.
  return value instanceof Error ? errorData(value) : value;
}

/** Structured JSON logs; LOG_LEVEL and POWERTOOLS_SERVICE_NAME come from configuration. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'patrol',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  jsonReplacerFn: redactingReplacer,
});

export type SecurityOutcome = 'success' | 'failure' | 'refused';

export interface SecurityEvent {
  /** What happened, e.g. 'login', 'password_change', 'password_reset', 'secret_reveal', 'site_url_change'. */
  event: string;
  /** Who did it: a user id, or the username typed at login. */
  actor: string | number;
  /** What it was done to, e.g. `user#12`, `site_account#7`. */
  target?: string | number;
  /** Where from: the trusted client address (functions/auth/clientIp.ts). */
  client_ip?: string;
  outcome: SecurityOutcome;
  /** Anything else worth keeping; secret-shaped keys are redacted like everywhere. */
  [detail: string]: unknown;
}

/** Who acts, as a route passes it down to a service: the signed-in user and their client address. */
export interface Actor {
  id: number;
  client_ip?: string;
}

/**
 * One line per security-relevant act, with who, what, from where and how it ended, under a fixed
 * message ('security event') and `security: true`, so a log query or metric filter finds them all.
 */
export function logSecurityEvent(entry: SecurityEvent): void {
  const line = { security: true, ...entry };
  if (entry.outcome === 'success') logger.info('security event', line);
  else logger.warn('security event', line);
}
