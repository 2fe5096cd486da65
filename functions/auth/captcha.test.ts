import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_ALPHABET, captchaAnswerHash, parseCaptchaInput } from './captcha.js';

const saved = process.env.JWT_SECRET;
beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret';
});
afterAll(() => {
  if (saved === undefined) delete process.env.JWT_SECRET;
  else process.env.JWT_SECRET = saved;
});

describe('captcha answers', () => {
  it('read both the object and the "id:answer" forms of the login body', () => {
    expect(parseCaptchaInput({ id: 'abc', answer: 'x7k2' })).toEqual({ id: 'abc', answer: 'x7k2' });
    expect(parseCaptchaInput('abc:x7k2')).toEqual({ id: 'abc', answer: 'x7k2' });
  });

  it('count a missing or half-filled captcha as no captcha', () => {
    for (const input of [undefined, null, '', 'abc', 'abc:', ':x7k2', { id: 'abc', answer: '' }]) {
      expect(parseCaptchaInput(input)).toBeUndefined();
    }
  });

  it('compare answers without regard to case or surrounding spaces, per captcha', () => {
    const key = new TextEncoder().encode('unit-test-secret');
    expect(captchaAnswerHash('id-1', ' X7K2 ', key)).toBe(captchaAnswerHash('id-1', 'x7k2', key));
    expect(captchaAnswerHash('id-2', 'x7k2', key)).not.toBe(captchaAnswerHash('id-1', 'x7k2', key));
  });

  it('use no characters that look alike', () => {
    expect(CAPTCHA_ALPHABET).not.toMatch(/[01ilo]/);
  });
});
