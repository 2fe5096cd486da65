import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEADERS } from '../../../shared/envelope.js';
import { apiContext, apiEvent, readReply } from '../../../tests/helpers/apiEvent.js';
import { UnauthorizedError } from '../errors.js';
import { createApiHandler } from './apiHandler.js';
import { type AuthUser, Router } from './router.js';
import { processAnswers, sharedAnswers } from './sharedAnswers.js';

describe('shared answers', () => {
  let t = 1_000_000;
  const clock = () => t;
  const answerOf = (n: number) => ({ body: `{"n":${n}}`, headers: { [HEADERS.consumedCapacity]: '3' } });

  it('serves an answer again, with its age, until it is as old as the route allows', async () => {
    const answers = sharedAnswers(clock);
    let computed = 0;
    const compute = async () => answerOf(++computed);
    expect(await answers.answer('k', 10_000, compute)).toMatchObject({ body: '{"n":1}', computed: true, ageMs: 0 });
    t += 9_999;
    expect(await answers.answer('k', 10_000, compute)).toMatchObject({
      body: '{"n":1}',
      computed: false,
      ageMs: 9_999,
    });
    t += 1;
    expect(await answers.answer('k', 10_000, compute)).toMatchObject({ body: '{"n":2}', computed: true });
    // Another key (another query) has its own answer.
    expect(await answers.answer('other', 10_000, compute)).toMatchObject({ body: '{"n":3}' });
  });

  it('lets callers who ask while it is computed share one computation, and keeps no failure', async () => {
    const answers = sharedAnswers(clock);
    let release: (v: { body: string; headers: Record<string, string> }) => void = () => {};
    const compute = vi.fn(() => new Promise<{ body: string; headers: Record<string, string> }>((r) => (release = r)));
    const first = answers.answer('k', 10_000, compute);
    const second = answers.answer('k', 10_000, compute);
    release(answerOf(1));
    expect(await first).toMatchObject({ body: '{"n":1}', computed: true });
    expect(await second).toMatchObject({ body: '{"n":1}', computed: false });
    expect(compute).toHaveBeenCalledTimes(1);

    const failing = sharedAnswers(clock);
    await expect(failing.answer('k', 10_000, () => Promise.reject(new Error('read failed')))).rejects.toThrow();
    expect(await failing.answer('k', 10_000, async () => answerOf(5))).toMatchObject({ body: '{"n":5}' });
  });

  it('forgets every answer on clear, even one being computed, and keeps none when switched off', async () => {
    const answers = sharedAnswers(clock);
    let release: (v: { body: string; headers: Record<string, string> }) => void = () => {};
    const slow = answers.answer('k', 10_000, () => new Promise((r) => (release = r)));
    answers.clear();
    release(answerOf(1));
    await slow;
    expect(await answers.answer('k', 10_000, async () => answerOf(2))).toMatchObject({ body: '{"n":2}' });

    process.env.SHARED_ANSWERS = 'off';
    try {
      expect(await answers.answer('k', 10_000, async () => answerOf(3))).toMatchObject({ body: '{"n":3}' });
    } finally {
      delete process.env.SHARED_ANSWERS;
    }
  });
});

describe('a route declaring sharedFor, through the API handler', () => {
  afterEach(() => processAnswers.clear());
  const user: AuthUser = { id: 1, username: 'u', nickname: 'U', role: 'viewer' };
  const authenticate = async (token: string) => {
    if (token !== 'good') throw new UnauthorizedError('Invalid login token, please login again.');
    return user;
  };
  let reads = 0;
  const router = new Router().get(
    '/figures',
    (req) => {
      reads++;
      req.setHeader(HEADERS.consumedCapacity, '7');
      return { result: [reads], of: req.query.days ?? null };
    },
    { sharedFor: 10_000 },
  );
  const handler = createApiHandler(router, authenticate);
  const get = async (path: string, token = 'good') =>
    readReply(
      await handler(apiEvent({ path, headers: { authorization: `Bearer ${token}` } }), apiContext() as Context),
    );

  it('answers the next caller with the same body without reading, saying it read nothing', async () => {
    const first = await get('/figures');
    expect(first).toMatchObject({ status: 200, body: { code: 1000, data: { result: [1] } } });
    expect(first.headers[HEADERS.consumedCapacity]).toBe('7');
    const again = await get('/figures');
    expect(again.body).toEqual(first.body);
    expect(again.headers[HEADERS.consumedCapacity]).toBe('0');
    expect(again.headers.age).toBe('0');
    expect(reads).toBe(1);
    // Another query is another answer.
    expect((await get('/figures?days=30')).body.data).toEqual({ result: [2], of: '30' });
  });

  it('still refuses a caller without a session', async () => {
    await get('/figures');
    expect((await get('/figures', 'bad')).status).toBe(401);
  });

  it('is refused on a write route or above the wall screen refresh', () => {
    expect(() => new Router().post('/x', () => 1, { sharedFor: 1_000 })).toThrow(/GET/);
    expect(() => new Router().get('/x', () => 1, { sharedFor: 60_000 })).toThrow(/GET/);
  });
});
