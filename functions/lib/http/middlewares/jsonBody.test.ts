import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../shared/errors.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { apiState } from './apiState.js';
import { jsonBody } from './jsonBody.js';

const call = apiChain([jsonBody()], (event, context) => ({
  body: apiState({ context }).body ?? null,
  sent: event.body ?? null,
}));

describe('jsonBody', () => {
  it('parses the JSON body and leaves the event as it came', async () => {
    const res = await call({ method: 'POST', path: '/x', body: { a: [1, 'b'] } });
    expect(res.body.data).toEqual({ body: { a: [1, 'b'] }, sent: '{"a":[1,"b"]}' });
  });

  it('reads a base64 body', async () => {
    const res = await call({ method: 'POST', path: '/x', body: { é: '\u0000' }, base64: true });
    expect(res.body.data.body).toEqual({ é: '\u0000' });
  });

  it('leaves a missing body undefined', async () => {
    expect((await call({ method: 'POST', path: '/x' })).body.data.body).toBeNull();
  });

  it('refuses malformed JSON with 400 and says so', async () => {
    const res = await call({
      method: 'POST',
      path: '/x',
      body: '{"a": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.MalformedJson, msg: 'Malformed JSON body' } });
  });
});
