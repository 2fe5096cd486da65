import { describe, expect, it } from 'vitest';
import { REVEAL_RATE_LIMIT } from '../secrets/revealRateLimit.js';
import { isReveal, tokenAllows } from './tokenScope.js';
import type { Route } from './router.js';

type R = Pick<Route, 'method' | 'access' | 'role' | 'audit' | 'rateLimit' | 'tokenScope'>;
const route = (method: string, extra: Partial<R> = {}): R => ({ method, access: 'user', ...extra });
const reveal = route('GET', {
  audit: { action: 'site_account.pwd.reveal' },
  rateLimit: { rule: REVEAL_RATE_LIMIT, what: 'x' },
});
const cases: [string, R, { read: boolean; operate: boolean; metrics: boolean }][] = [
  ['a GET', route('GET'), { read: true, operate: true, metrics: false }],
  ['a write', route('POST'), { read: false, operate: true, metrics: false }],
  ['a reveal', reveal, { read: false, operate: false, metrics: false }],
  [
    'a write on the reveals budget',
    route('POST', { rateLimit: { rule: REVEAL_RATE_LIMIT, what: 'x' } }),
    { read: false, operate: false, metrics: false },
  ],
  ['an own-account write (logout)', route('POST', { role: 'viewer' }), { read: false, operate: false, metrics: false }],
  ['a GET of the super area', route('GET', { access: 'super' }), { read: false, operate: false, metrics: false }],
  ['a write of the super area', route('POST', { access: 'super' }), { read: false, operate: false, metrics: false }],
  ['a GET that takes operators', route('GET', { role: 'operator' }), { read: false, operate: true, metrics: false }],
  ['/metrics', route('GET', { tokenScope: 'metrics' }), { read: false, operate: false, metrics: true }],
  ['a public route', route('POST', { access: 'public' }), { read: false, operate: false, metrics: false }],
];

describe('tokenAllows', () => {
  it.each(cases)('%s', (_, r, expected) => {
    expect({
      read: tokenAllows('read', r),
      operate: tokenAllows('operate', r),
      metrics: tokenAllows('metrics', r),
    }).toEqual(expected);
  });

  it('knows a reveal by its budget or by an audited read, not by an audited write', () => {
    expect(isReveal(reveal)).toBe(true);
    expect(isReveal(route('GET', { audit: { action: 'x' } }))).toBe(true);
    expect(isReveal(route('PUT', { audit: { action: 'x' } }))).toBe(false);
    expect(isReveal(route('GET', { audit: false }))).toBe(false);
  });
});
