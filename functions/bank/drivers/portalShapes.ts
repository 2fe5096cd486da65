// Reading a portal's answer: anything that is not the shape the driver knows is "unexpected
// data" (account status 9 Wrong), named by the call and the first field that did not fit, so an
// operator can tell the bank changed its portal from a bank that is down.
import type { z } from 'zod';
import { BankUnexpectedDataError } from './errors';
import { type PortalResponse, parseJson } from './portalRequest';

export function readShape<S extends z.ZodType>(call: string, schema: S, res: PortalResponse): z.infer<S> {
  const value = parseJson(res.body);
  if (value === undefined)
    throw new BankUnexpectedDataError(call, `not JSON (HTTP ${res.status}, ${res.body.length} bytes)`, res.status);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'answer';
    throw new BankUnexpectedDataError(call, `${where}: ${issue?.message ?? 'unexpected shape'}`, res.status);
  }
  return parsed.data;
}

/** Both banks keep Myanmar time (UTC+06:30, no daylight saving): their dates are in it. */
export const MYANMAR_UTC_OFFSET_MS = 6.5 * 3600_000;

/** YYYY-MM-DD and HH:mm:ss of an instant in Myanmar time. */
export function myanmarParts(ms: number): { date: string; time: string } {
  const iso = new Date(ms + MYANMAR_UTC_OFFSET_MS).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

export const DAY_MS = 86_400_000;
