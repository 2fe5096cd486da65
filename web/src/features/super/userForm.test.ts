import { describe, expect, it } from 'vitest';
import { checkNewUser, emptyNewUser } from './userForm';

describe('New User form rule', () => {
  it('gives the first message of each refused field, in the server schema’s words', () => {
    expect(checkNewUser({ ...emptyNewUser, username: 'ab' })).toEqual({
      errors: { username: 'min length is 3', password: 'Please input password!' },
    });
  });

  it('sends the trimmed body, with no nickname when it is left empty', () => {
    expect(checkNewUser({ username: ' alice ', nickname: '  ', password: ' secret1 ', role: 'super' })).toEqual({
      body: { username: 'alice', password: 'secret1', role: 'super' },
    });
  });
});
