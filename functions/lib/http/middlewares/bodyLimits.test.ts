import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../shared/errors.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { bodyLimits } from './bodyLimits.js';

const call = apiChain([bodyLimits(100)]);

describe('bodyLimits', () => {
  it('lets a JSON body within the limit through, in any JSON media type', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/problem+json',
    ]) {
      expect(
        (await call({ method: 'POST', path: '/x', body: '{"a":1}', headers: { 'content-type': type } })).status,
        type,
      ).toBe(200);
    }
  });

  it('lets a call without a body through whatever its content type', async () => {
    expect((await call({ method: 'POST', path: '/x', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await call({ method: 'POST', path: '/x', body: { a: 'x'.repeat(200) } });
    expect(res).toMatchObject({ status: 413, body: { code: ErrorCode.PayloadTooLarge } });
  });

  it('refuses a body that is not JSON with 415 saying so', async () => {
    const res = await call({
      method: 'POST',
      path: '/x',
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res).toMatchObject({ status: 415, body: { code: ErrorCode.UnsupportedMediaType } });
    expect(res.body.msg).toMatch(/JSON/);
    expect((await call({ method: 'POST', path: '/x', body: '{}', headers: {} })).status).toBe(415);
  });
});
