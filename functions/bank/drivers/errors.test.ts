import { describe, expect, it } from 'vitest';
import { BankAccountStatus, SubAccountStatus } from '../../../shared/enums';
import {
  accountStatusFor,
  BankAccountLockedError,
  BankSessionExpiredError,
  BankSubAccountUnusableError,
  BankTransientError,
  BankUnexpectedDataError,
  BankWrongCredentialsError,
  bankErrorMessage,
  subAccountStatusFor,
} from './errors';

describe('the status a failed poll sets', () => {
  it.each([
    [new BankWrongCredentialsError('Invalid User ID or Password'), BankAccountStatus.values.Incorrect, undefined],
    [new BankAccountLockedError('locked'), BankAccountStatus.values.Locked, undefined],
    [new BankUnexpectedDataError('GET /x', 'not JSON'), BankAccountStatus.values.Wrong, undefined],
    [new BankSessionExpiredError('GET /x'), undefined, undefined],
    [new BankTransientError('Bank answered HTTP 500 to GET /x'), undefined, undefined],
    [new BankSubAccountUnusableError('0012', 'dormant'), undefined, SubAccountStatus.values.Unavailable],
    // A driver that throws something untyped misread the portal: the operator sees Wrong.
    [new TypeError("Cannot read properties of undefined (reading 'x')"), BankAccountStatus.values.Wrong, undefined],
  ])('%s', (err, account, sub) => {
    expect(accountStatusFor(err)).toBe(account);
    expect(subAccountStatusFor(err)).toBe(sub);
  });

  it('gives an operator-readable message for anything thrown', () => {
    expect(bankErrorMessage(new BankSubAccountUnusableError('0012', 'Account is dormant'))).toBe(
      'Sub-account 0012 unavailable: Account is dormant',
    );
    expect(bankErrorMessage(new Error('boom'))).toBe('Bank poll failed: boom');
  });
});
