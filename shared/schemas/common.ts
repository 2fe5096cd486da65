import { z } from 'zod';
import { ValidatorMessages, lengthBetween, required } from '../validators.js';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 40;

/** Upper bounds of body strings and arrays, so no field can carry a megabyte (issue 10). */
export const Bounds = { name: 100, url: 2048, secret: 128, remark: 500, token: 100, ids: 1000, list: 100 } as const;

/** A trimmed, required string with the spec's own message. */
export const requiredText = required;

/** A user password: trimmed, required, 6 to 40 characters (spec section 5). */
export const password = (requiredMessage: string) => lengthBetween(PASSWORD_MIN, PASSWORD_MAX, requiredMessage);

/** Said of an address that carries a user or password (`http://user:pass@host`): it would be shown and kept in clear. */
export const URL_CREDENTIALS_MESSAGE = 'The address must not contain a user name or password';

/** Whether a URL names a user or password before its host. */
export const hasUrlCredentials = (u: URL) => u.username !== '' || u.password !== '';

/**
 * An http(s) address, the rule every address Patrol calls or opens passes (with the outbound guard,
 * functions/lib/net): no user or password in it, which lists, exports and audit rows would show.
 */
export const httpUrl = (
  requiredMessage: string,
  invalidMessage = 'Please give the full address including http(s)://',
) =>
  requiredText(requiredMessage)
    .max(Bounds.url, ValidatorMessages.maxLength(Bounds.url))
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, invalidMessage)
    .refine((v) => !URL.canParse(v) || !hasUrlCredentials(new URL(v)), URL_CREDENTIALS_MESSAGE);

export const id = z.coerce.number().int().positive();

/** Epoch milliseconds: every timestamp on the wire. */
export const stamp = z.number().int();

/** `{nickname}` of a creator, operator or sender; null shows as SYSTEM. */
export const UserRef = z.object({ nickname: z.string() }).nullable();
export type UserRef = z.infer<typeof UserRef>;
