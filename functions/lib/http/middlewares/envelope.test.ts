import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors.js';
import { ListQueryError } from '../../../../shared/listQuery.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { ConflictError, TooManyRequestsError } from '../../errors.js';
import { RawReply } from '../router.js';

const answer = (make: () => unknown) => apiChain([], make)({ path: '/x' });

describe('envelope', () => {
  it('wraps a result as a success with the request id in a header', async () => {
    const res = await answer(() => ({ a: 1 }));
    expect(res).toMatchObject({ status: 200, body: { code: 1000, msg: 'SUCCESS', data: { a: 1 } } });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect((await answer(() => undefined)).body.data).toBeNull();
  });

  it('sends a raw reply as it is', async () => {
    const res = await answer(() => new RawReply(302, '', { location: '/x' }));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/x');
  });

  it('puts a Patrol error on the wire with its status, code, extra and headers', async () => {
    const conflict = await answer(() => {
      throw new ConflictError('taken', { extra: { name: 'taken' } });
    });
    expect(conflict).toMatchObject({
      status: 409,
      body: { code: ErrorCode.Conflict, msg: 'taken', extra: { name: 'taken' } },
    });
    expect(conflict.body.request_id).toBe(conflict.headers['x-request-id']);
    expect(conflict.body).not.toHaveProperty('data');
    const limited = await answer(() => {
      throw new TooManyRequestsError('slow down', 7);
    });
    expect(limited).toMatchObject({ status: 429, headers: { 'retry-after': '7' } });
  });

  it('answers input errors with 400', async () => {
    const zod = await answer(() => z.object({ a: z.string() }).parse({}));
    expect(zod).toMatchObject({ status: 400, body: { code: ErrorCode.Validation, extra: { a: expect.any(String) } } });
    const list = await answer(() => {
      throw new ListQueryError('page', 'page must be a number');
    });
    expect(list).toMatchObject({
      status: 400,
      body: { code: ErrorCode.BadRequest, extra: { page: 'page must be a number' } },
    });
  });

  it('hides an unexpected error behind a bare 500', async () => {
    const res = await answer(() => {
      throw new Error('db password is hunter2');
    });
    expect(res).toMatchObject({ status: 500, body: { code: ErrorCode.Internal, msg: 'Internal error, try later.' } });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });
});
