import { Logger } from '@aws-lambda-powertools/logger';

/** Keys whose values are secrets: never written to a log line, whatever the depth. */
const SECRET_KEY = /pwd|pass(word)?|secret|token|api_?key|authorization|captcha|jwt|cookie/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1),
    ]),
  );
}

/** Structured JSON logs; LOG_LEVEL and POWERTOOLS_SERVICE_NAME come from configuration. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'patrol',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
});
