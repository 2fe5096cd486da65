import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Captcha } from '../../shared/schemas/auth.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { jwtKeyRing } from './jwtKeys.js';

// Captchas shown after repeated failed logins. The answer is stored only as a keyed hash
// (`captcha#{id}`), with a short expiry, and is deleted by the first attempt to use it,
// right or wrong, so each image buys exactly one guess.

export const CAPTCHA_TTL_MS = 5 * 60_000;
/** Lower-case letters and digits without look-alikes (0/o, 1/l/i); answers are case-insensitive. */
export const CAPTCHA_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const CAPTCHA_LENGTH = 4;

/** One record per captcha (its key as it was written before lib/db named record keys). */
const captchas = keyedRecords<{ answer_hash: string; valid_until: number; expires_at?: number }>('captcha', {
  sk: 'captcha',
});

/**
 * The stored form of an answer: bound to the captcha id and to the server's key (the JWT signing
 * key; a captcha made just before a rotation is checked against the previous key too).
 */
export function captchaAnswerHash(id: string, answer: string, key: Uint8Array): string {
  return createHmac('sha256', key).update(`${id}:${answer.trim().toLowerCase()}`).digest('base64');
}

export async function createCaptcha(now = Date.now()): Promise<Captcha> {
  const { text, data } = svgCaptcha.create({
    size: CAPTCHA_LENGTH,
    charPreset: CAPTCHA_ALPHABET,
    noise: 2,
    // Dark glyphs: with `color: true` they were drawn in random pale colours, hard to read.
    color: false,
    width: 120,
    height: 40,
    fontSize: 46,
  });
  const id = randomUUID();
  await captchas.put(id, {
    answer_hash: captchaAnswerHash(id, text, (await jwtKeyRing()).signing.secret),
    valid_until: now + CAPTCHA_TTL_MS,
    expires_at: Math.ceil((now + CAPTCHA_TTL_MS) / 1000),
  });
  return { id, image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True when the answer is right and the captcha unexpired; the captcha is used up either way. */
export async function consumeCaptcha(id: string, answer: string, now = Date.now()): Promise<boolean> {
  if (!UUID.test(id) || !answer.trim()) return false;
  const item = await captchas.remove(id, { returnOld: true });
  if (!item || Number(item.valid_until) < now) return false;
  const expected = Buffer.from(String(item.answer_hash), 'base64');
  return (await jwtKeyRing()).verifying.some(({ secret }) => {
    const given = Buffer.from(captchaAnswerHash(id, answer, secret), 'base64');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** `{id, answer}` or `'{id}:{answer}'` as the login body may carry it. */
export function parseCaptchaInput(
  input: string | { id: string; answer: string } | null | undefined,
): { id: string; answer: string } | undefined {
  if (!input) return undefined;
  if (typeof input !== 'string') return input.id && input.answer ? input : undefined;
  const at = input.indexOf(':');
  if (at <= 0 || at === input.length - 1) return undefined;
  return { id: input.slice(0, at), answer: input.slice(at + 1) };
}
