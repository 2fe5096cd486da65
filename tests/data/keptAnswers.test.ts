import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HEADERS } from '../../shared/envelope.js';
import { storeAnswer } from '../../functions/lib/db/storedAnswers.js';
import { createApiHandler } from '../../functions/lib/http/apiHandler.js';
import { KEPT_MAX_AGE_MS, answerKey, refreshAhead, storedData } from '../../functions/lib/http/keptAnswers.js';
import { type AuthUser, Router } from '../../functions/lib/http/router.js';
import { processAnswers } from '../../functions/lib/http/sharedAnswers.js';
import { apiContext, apiEvent, readReply } from '../helpers/apiEvent.js';
import { setupDynamo } from './engine.js';

setupDynamo();

// A route as the dashboard's are declared: shared, with the console's query kept ready ahead.
const DaysQuery = z.object({ days: z.preprocess(Number, z.number().int().positive()).default(7) });
let figure = 1;
let computes = 0;
const featureRouter = new Router().get(
  '/figures',
  (req) => {
    computes++;
    req.setHeader(HEADERS.consumedCapacity, '31');
    return { result: { figure, days: (req.queryData as { days: number }).days, padding: 'x'.repeat(50_000) } };
  },
  { query: DaysQuery, sharedFor: 10_000, refreshAhead: [{ days: '7' }] },
);
const user: AuthUser = { id: 1, username: 'u', nickname: 'U', role: 'viewer' };
// Mounted under /api/v1 as the API mounts it; the refresher gets the feature's own router.
const handler = createApiHandler(new Router().include('/api/v1', featureRouter), async () => user);
/** A call from an instance that has kept nothing in memory (a new Lambda, another process). */
const coldGet = async (path: string) => {
  processAnswers.clear();
  return readReply(
    await handler(
      apiEvent({ path: `/api/v1${path}`, headers: { authorization: 'Bearer t' } }),
      apiContext() as Context,
    ),
  );
};

describe('answers kept ready ahead of their callers', () => {
  afterEach(() => processAnswers.clear());

  it('serves a cold instance the answer the refresher stored, reading the stored answer only, and tells its age', async () => {
    figure = 1;
    expect(await refreshAhead([featureRouter])).toEqual({ refreshed: ['/figures {"days":7}'], failed: [] });
    const before = computes;
    figure = 2;
    // `?days=7` and no query are the same question, both served from the store.
    for (const path of ['/figures?days=7', '/figures']) {
      const reply = await coldGet(path);
      expect(reply.status).toBe(200);
      expect(reply.body.data.result).toMatchObject({ figure: 1, days: 7 });
      // Only the stored record's read (a gzipped ~50 KB answer is a few KB): not the compute's 31.
      const rcu = Number(reply.headers[HEADERS.consumedCapacity]);
      expect(rcu).toBeGreaterThan(0);
      expect(rcu).toBeLessThan(2);
      expect(reply.headers.age).toMatch(/^\d+$/);
    }
    expect(computes).toBe(before);

    // The next refresh shows the change to the next cold caller.
    await refreshAhead([featureRouter]);
    expect((await coldGet('/figures')).body.data.result.figure).toBe(2);
  });

  it('serves a query it does not keep from the store for sharedFor only, and computes a kept one grown too old', async () => {
    figure = 3;
    const before = computes;
    const other = await coldGet('/figures?days=30');
    expect(other.body.data.result).toMatchObject({ figure: 3, days: 30 });
    expect(other.headers[HEADERS.consumedCapacity]).toBe('31');
    // Another instance within sharedFor: the stored answer.
    const again = await coldGet('/figures?days=30');
    expect(again.body).toEqual(other.body);
    expect(Number(again.headers[HEADERS.consumedCapacity])).toBeLessThan(2);
    expect(computes).toBe(before + 1);
    // Past sharedFor it is computed again: no one keeps it fresh.
    await storeAnswer(answerKey('/figures', { days: 30 }), {
      body: JSON.stringify({ code: 1000, data: { result: { figure: 0 } } }),
      headers: {},
      madeAt: Date.now() - 10_001,
      kept: false,
    });
    expect((await coldGet('/figures?days=30')).body.data.result.figure).toBe(3);
    expect(computes).toBe(before + 2);

    // A refresher that stopped: the kept answer outgrew its age, so its caller computes it again...
    await storeAnswer(answerKey('/figures', { days: 7 }), {
      body: JSON.stringify({ code: 1000, data: { result: { figure: 0 } } }),
      headers: {},
      madeAt: Date.now() - KEPT_MAX_AGE_MS - 1,
      kept: true,
    });
    const stale = await coldGet('/figures');
    expect(stale.body.data.result.figure).toBe(3);
    expect(stale.headers[HEADERS.consumedCapacity]).toBe('31');
    // ... and stores it, still kept: the next cold caller reads it.
    const next = await coldGet('/figures');
    expect(next.body.data.result.figure).toBe(3);
    expect(Number(next.headers[HEADERS.consumedCapacity])).toBeLessThan(2);
    expect(computes).toBe(before + 3);
  });

  it('keeps the queries a route names at each refresh, after the answers it names them from', async () => {
    figure = 5;
    // As the Timings panel opens on the scorecard's first site: named from the stored /figures answer.
    const namedRouter = new Router().get(
      '/named',
      (req) => ({ result: { of: (req.queryData as { days: number }).days } }),
      {
        query: DaysQuery,
        sharedFor: 10_000,
        refreshAhead: async () => {
          const data = await storedData<{ result: { figure: number } }>('/figures', { days: 7 });
          return data ? [{ days: String(data.result.figure * 10) }] : [];
        },
      },
    );
    const { refreshed } = await refreshAhead([namedRouter, featureRouter]);
    expect(refreshed).toEqual(['/figures {"days":7}', '/named {"days":50}']);
  });

  it("still answers when its answer cannot be stored (past an item's 400 KB even gzipped)", async () => {
    const big = new Router().get('/big', () => ({ result: randomBytes(450_000).toString('base64') }), {
      sharedFor: 10_000,
      refreshAhead: [],
    });
    const bigHandler = createApiHandler(new Router().include('/api/v1', big), async () => user);
    processAnswers.clear();
    const reply = readReply(
      await bigHandler(
        apiEvent({ path: '/api/v1/big', headers: { authorization: 'Bearer t' } }),
        apiContext() as Context,
      ),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.result).toHaveLength(600_000);
  });

  it('keeps nothing and stores nothing when sharing is switched off (the test stacks)', async () => {
    await refreshAhead([featureRouter]);
    process.env.SHARED_ANSWERS = 'off';
    try {
      figure = 4;
      expect(await refreshAhead([featureRouter])).toEqual({ refreshed: [], failed: [] });
      const reply = await coldGet('/figures');
      expect(reply.body.data.result.figure).toBe(4);
      expect(reply.headers[HEADERS.consumedCapacity]).toBe('31');
    } finally {
      delete process.env.SHARED_ANSWERS;
    }
  });

  it('refuses a declaration it could not keep', () => {
    expect(() => new Router().get('/x', () => 1, { refreshAhead: [{}] })).toThrow(/refreshAhead/);
    expect(() => new Router().get('/x/:id', () => 1, { sharedFor: 1_000, refreshAhead: [{}] })).toThrow(/refreshAhead/);
    expect(() =>
      new Router().get('/x', () => 1, { query: DaysQuery, sharedFor: 1_000, refreshAhead: [{ days: 'many' }] }),
    ).toThrow();
  });
});
