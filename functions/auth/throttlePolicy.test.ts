import { describe, expect, it } from 'vitest';
import { captchaNext, THROTTLE, throttleVerdict } from './throttlePolicy.js';

const now = 1_700_000_000_000;
// Counts include the attempt being judged: it reserved its slot before the verdict.
const counter = (failures: number, minutesAgo = 1) => ({ failures, window_start: now - minutesAgo * 60_000 });

describe('login throttle policy', () => {
  it('asks only for the password for the first three attempts', () => {
    expect(throttleVerdict([undefined, undefined], now)).toEqual({ kind: 'open' });
    expect(throttleVerdict([counter(3), counter(3)], now)).toEqual({ kind: 'open' });
  });

  it('asks for a captcha after three failures of the username or of the client address', () => {
    expect(throttleVerdict([counter(4), undefined], now)).toEqual({ kind: 'captcha' });
    expect(throttleVerdict([counter(1), counter(9)], now)).toEqual({ kind: 'captcha' });
  });

  it('locks a client address after ten failures until the window that began at its first attempt ends', () => {
    expect(throttleVerdict([counter(1), counter(11, 5)], now)).toEqual({ kind: 'locked', retryAfterSeconds: 600 });
    expect(throttleVerdict([counter(3), counter(12, 14.5)], now)).toEqual({ kind: 'locked', retryAfterSeconds: 30 });
  });

  it('never locks a username: after ten failures it takes a captcha and a doubling backoff, up to a minute', () => {
    expect(throttleVerdict([counter(11), counter(1)], now)).toEqual({ kind: 'captcha', backoffMs: 2000 });
    expect(throttleVerdict([counter(14), counter(1)], now)).toEqual({ kind: 'captcha', backoffMs: 16_000 });
    expect(throttleVerdict([counter(500), counter(1)], now)).toEqual({ kind: 'captcha', backoffMs: 60_000 });
  });

  it('forgets attempts once their window has passed', () => {
    expect(throttleVerdict([counter(50, THROTTLE.windowMs / 60_000), undefined], now)).toEqual({ kind: 'open' });
  });

  it('tells the screen to show the captcha from the third failure on', () => {
    expect(captchaNext([counter(2), counter(2)], now)).toBe(false);
    expect(captchaNext([counter(3), counter(1)], now)).toBe(true);
  });
});
