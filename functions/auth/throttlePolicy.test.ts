import { describe, expect, it } from 'vitest';
import { THROTTLE, throttleVerdict } from './throttlePolicy.js';

const now = 1_700_000_000_000;
const counter = (failures: number, minutesAgo = 1) => ({ failures, window_start: now - minutesAgo * 60_000 });

describe('login throttle policy', () => {
  it('asks only for the password before the third failure', () => {
    expect(throttleVerdict([undefined, undefined], now)).toEqual({ kind: 'open' });
    expect(throttleVerdict([counter(2), counter(2)], now)).toEqual({ kind: 'open' });
  });

  it('asks for a captcha from the third failure of the username or of the IP', () => {
    expect(throttleVerdict([counter(3), undefined], now)).toEqual({ kind: 'captcha' });
    expect(throttleVerdict([counter(0), counter(9)], now)).toEqual({ kind: 'captcha' });
  });

  it('locks after ten failures until the window that began at the first failure ends', () => {
    expect(throttleVerdict([counter(10, 5), counter(1)], now)).toEqual({ kind: 'locked', retryAfterSeconds: 600 });
    expect(throttleVerdict([counter(3), counter(12, 14.5)], now)).toEqual({ kind: 'locked', retryAfterSeconds: 30 });
  });

  it('forgets failures once their window has passed', () => {
    expect(throttleVerdict([counter(50, THROTTLE.windowMs / 60_000)], now)).toEqual({ kind: 'open' });
  });
});
