import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { Router } from '../router.js';
import { apiState } from './apiState.js';
import { jsonBody } from './jsonBody.js';
import { routing } from './routing.js';
import { validation } from './validation.js';

const Body = z.object({ name: z.string().trim().min(1, 'Please input a name'), n: z.number().default(3) });
const router = new Router()
  .post('/typed', () => 0, { access: 'public', body: Body })
  .post('/free', () => 0, { access: 'public' });
const call = apiChain([routing(router), jsonBody(), validation()], (_e, context) => apiState({ context }).body ?? null);

describe('validation', () => {
  it('hands over what the schema made of the body', async () => {
    expect((await call({ method: 'POST', path: '/typed', body: { name: '  a ' } })).body.data).toEqual({
      name: 'a',
      n: 3,
    });
  });

  it('refuses a wrong body with 400 and one message per field', async () => {
    const res = await call({ method: 'POST', path: '/typed', body: { name: ' ', n: 'x' } });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.Validation, msg: 'Please input a name' } });
    expect(Object.keys(res.body.extra).sort()).toEqual(['n', 'name']);
  });

  it('names the required fields of a missing body', async () => {
    const res = await call({ method: 'POST', path: '/typed' });
    expect(res.body.extra).toHaveProperty('name');
  });

  it('passes the body through on a route without a schema', async () => {
    expect((await call({ method: 'POST', path: '/free', body: [1] })).body.data).toEqual([1]);
  });
});
