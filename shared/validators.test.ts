import { describe, expect, it } from 'vitest';
import { MONITOR_INTERVAL_MAX_S, MONITOR_INTERVAL_MIN_S } from './constants';
import { PASSWORD_MAX, PASSWORD_MIN } from './schemas/common';
import {
  defaultOption,
  firstError,
  integerRange,
  lengthBetween,
  maxLength,
  mustContain,
  required,
  sameAs,
} from './validators';

describe('required', () => {
  it("says 'Please input here' for an empty or blank value, or the field's own text", () => {
    expect(firstError(required(), '')).toBe('Please input here');
    expect(firstError(required(), '   ')).toBe('Please input here');
    expect(firstError(required('Please enter user'), undefined)).toBe('Please enter user');
  });

  it('passes the trimmed value', () => {
    expect(required().parse('  alpha ')).toBe('alpha');
  });
});

describe('lengthBetween and maxLength', () => {
  const pwd = lengthBetween(PASSWORD_MIN, PASSWORD_MAX, 'Please input new password!');

  it('words the bounds as the spec does', () => {
    expect(firstError(pwd, '')).toBe('Please input new password!');
    expect(firstError(pwd, 'a'.repeat(5))).toBe('min length is 6');
    expect(firstError(pwd, 'a'.repeat(41))).toBe('max length is 40');
    expect(firstError(pwd, ` ${'a'.repeat(6)} `)).toBeUndefined();
    expect(firstError(maxLength(3), 'abcd')).toBe('max length is 3');
    expect(firstError(maxLength(3), '')).toBeUndefined();
  });
});

describe('integerRange', () => {
  const range = integerRange(MONITOR_INTERVAL_MIN_S, MONITOR_INTERVAL_MAX_S);

  it("answers 'Please input a number', 'Min is N.' and 'Max is N.'", () => {
    expect(firstError(range, '')).toBe('Please input a number');
    expect(firstError(range, 'ten')).toBe('Please input a number');
    expect(firstError(range, '7.5')).toBe('Please input a number');
    expect(firstError(range, null)).toBe('Please input a number');
    expect(firstError(range, '4')).toBe('Min is 5.');
    expect(firstError(range, 121)).toBe('Max is 120.');
  });

  it('gives the number for a typed or numeric value at or inside the bounds', () => {
    expect(range.parse(' 5 ')).toBe(5);
    expect(range.parse(120)).toBe(120);
  });

  it("takes a field's own texts (the monitor interval says 'Must between 5 and 120', empty included)", () => {
    const text = 'Must between 5 and 120';
    const interval = integerRange(5, 120, { required: text, number: text, min: text, max: text });
    for (const bad of ['', 'x', '4', '121']) expect(firstError(interval, bad)).toBe(text);
  });
});

describe('sameAs', () => {
  const repeat = (pwd: string) => sameAs(required('Please repeat new password!'), pwd, 'Password not matched');

  it('passes a repeat equal to the other field after trimming', () => {
    expect(firstError(repeat('secret1'), ' secret1 ')).toBeUndefined();
  });

  it('names the mismatch, after the own rule of the field', () => {
    expect(firstError(repeat('secret1'), 'secret2')).toBe('Password not matched');
    expect(firstError(repeat('secret1'), '')).toBe('Please repeat new password!');
  });
});

describe('mustContain', () => {
  it('asks for the missing part', () => {
    expect(firstError(mustContain(required(), '@'), 'alice')).toBe('Must contain @');
    expect(firstError(mustContain(required(), '@', 'Not an address'), 'alice')).toBe('Not an address');
    expect(firstError(mustContain(required(), '@'), 'alice@example.com')).toBeUndefined();
  });
});

describe('defaultOption', () => {
  it('refuses the placeholder option and an empty choice', () => {
    const bank = defaultOption(0, 'Please select bank');
    expect(firstError(bank, 0)).toBe('Please select bank');
    expect(firstError(bank, undefined)).toBe('Please select bank');
    expect(firstError(bank, 1)).toBeUndefined();
  });
});
