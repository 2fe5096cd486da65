// A keyed record's conditional writes (lib/db/keyedRecords.ts `when`, declared in expr.ts): what the
// login throttle, the super seats, the checker slots and the captchas rely on since they stopped
// sending their own commands.
import { describe, expect, it } from 'vitest';
import { claimCheckSlot, releaseAttempt, reserveAttempt, userThrottleKey } from '../../functions/auth/throttle.js';
import { held, ifHeld } from '../../functions/lib/db/conditionFailure.js';
import { when } from '../../functions/lib/db/expr.js';
import { keyedRecords } from '../../functions/lib/db/keyedRecords.js';
import { dynamoSuperSeats } from '../../functions/users/superSeats.js';
import { setupDynamo } from './engine.js';

setupDynamo();

describe('a keyed record written on a condition', () => {
  const records = keyedRecords<{ holder?: string; n?: number }>('cond_probe');

  it('puts only when the declared condition holds, and says so', async () => {
    expect(await records.put('a', { holder: 'x', n: 1 }, { when: when.missing() })).toBe(true);
    expect(await records.put('a', { holder: 'y', n: 1 }, { when: when.missing() })).toBe(false);
    expect(await records.put('a', { holder: 'y', n: 2 }, { when: when.or(when.missing(), when.is('n', '<', 2)) })).toBe(
      true,
    );
    expect(await records.get('a', { consistent: true })).toEqual({ holder: 'y', n: 2 });
  });

  it('refuses an update or a delete whose condition fails, leaving the record as it was', async () => {
    await records.put('b', { holder: 'x', n: 5 });
    expect(await held(records.update('b', { add: { n: 1 } }, { when: when.is('holder', '=', 'z') }))).toBe(false);
    expect(await held(records.remove('b', { when: when.is('holder', '=', 'z') }))).toBe(false);
    expect(await records.get('b', { consistent: true })).toEqual({ holder: 'x', n: 5 });
    expect(await ifHeld(records.update('b', { add: { n: 1 } }, { returnNew: true, when: when.exists() }))).toEqual({
      holder: 'x',
      n: 6,
    });
    expect(await records.remove('b', { returnOld: true, when: when.is('holder', '=', 'x') })).toEqual({
      holder: 'x',
      n: 6,
    });
    expect(await records.get('b', { consistent: true })).toBeUndefined();
  });

  it('does not create a record an update expects to exist', async () => {
    expect(await held(records.update('c', { set: { holder: 'x' } }, { when: when.exists() }))).toBe(false);
    expect(await records.get('c', { consistent: true })).toBeUndefined();
  });
});

describe('the features on keyed records', () => {
  it('never lets the last super seat go, and takes one back', async () => {
    const seats = dynamoSuperSeats();
    await seats.ensure(async () => 2);
    expect(await seats.release()).toBe(true);
    expect(await seats.release()).toBe(false);
    await seats.take();
    expect(await seats.release()).toBe(true);
  });

  it('counts login attempts in one window, gives one back, and lets one check through at a time', async () => {
    const key = userThrottleKey('Probe');
    const now = 1_000_000;
    expect(await reserveAttempt(key, now)).toEqual({ failures: 1, window_start: now });
    const second = await reserveAttempt(key, now + 1);
    expect(second).toEqual({ failures: 2, window_start: now });
    await releaseAttempt(key, second);
    expect(await reserveAttempt(key, now + 2)).toEqual({ failures: 2, window_start: now });
    expect(await claimCheckSlot(key, 500, now + 3)).toBe(0);
    expect(await claimCheckSlot(key, 500, now + 4)).toBe(499);
  });
});
