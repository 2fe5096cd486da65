// The api-key access kind end to end on a test-only route: the key checked by an injected
// verifier (the bank feature will plug its store in), then the per-key rate limit counted in
// DynamoDB (its own dynalite here), 429 with Retry-After once the window is used up.
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { createApiHandler } from '../../functions/lib/http/apiHandler.js';
import { Router, apiKeyAccess } from '../../functions/lib/http/router.js';
import { setupDynamo } from '../data/engine.js';
import { apiContext, apiEvent, readReply } from '../helpers/apiEvent.js';

setupDynamo();

const KEYS: Record<string, string> = { 'key-of-bank-a': 'bank-a', 'key-of-bank-b': 'bank-b' };
const hook = new Router().post('/hook', (req) => ({ caller: req.caller?.id, body: req.body }), {
  access: apiKeyAccess(async (key) => (Object.hasOwn(KEYS, key) ? { id: KEYS[key] } : undefined), {
    name: `test-hook-${Date.now()}`,
    limit: 3,
    windowSeconds: 3600,
  }),
});
const handler = createApiHandler(new Router().include('/api/v1', hook), async () => {
  throw new Error('no bearer tokens on this route');
});
const call = async (headers: Record<string, string>) =>
  readReply(await handler(apiEvent({ method: 'POST', path: '/api/v1/hook', headers, body: { n: 1 } }), apiContext()));

describe('api-key access', () => {
  it('answers 401 without a key and with a wrong one', async () => {
    expect(await call({})).toMatchObject({ status: 401, body: { code: ErrorCode.Unauthorized } });
    expect(await call({ 'x-api-key': 'key-of-nobody' })).toMatchObject({
      status: 401,
      body: { code: ErrorCode.Unauthorized, msg: 'Invalid API key' },
    });
  });

  it('lets a right key through, then answers 429 with Retry-After past its limit, per key', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await call({ 'x-api-key': 'key-of-bank-a' })).toMatchObject({
        status: 200,
        body: { data: { caller: 'bank-a', body: { n: 1 } } },
      });
    }
    const refused = await call({ 'x-api-key': 'key-of-bank-a' });
    expect(refused).toMatchObject({ status: 429, body: { code: ErrorCode.TooManyRequests } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another key has its own budget.
    expect((await call({ 'x-api-key': 'key-of-bank-b' })).status).toBe(200);
  });
});
