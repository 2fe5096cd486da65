import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../shared/errors.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { Router } from '../router.js';
import { apiState } from './apiState.js';
import { routing } from './routing.js';

const items = new Router()
  .get('/items/*name', () => 'any')
  .get('/items/special', () => 'special')
  .get('/items/:id/parts', () => 'parts')
  .put('/items/:id/parts', () => 'put');
const router = new Router().include('/api/v1', items);

const call = apiChain([routing(router)], (_event, context) => {
  const { route, params } = apiState({ context });
  return { pattern: route?.pattern, params };
});

describe('routing', () => {
  it('finds the route under its prefix and hands over decoded parameters', async () => {
    const res = await call({ path: '/api/v1/items/a%20b' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ pattern: '/api/v1/items/*name', params: { name: 'a b' } });
  });

  it('prefers the most specific route whatever the declaration order', async () => {
    expect((await call({ path: '/api/v1/items/special' })).body.data.pattern).toBe('/api/v1/items/special');
  });

  it('reads :id as a number, parsed for the handler', async () => {
    expect((await call({ path: '/api/v1/items/12/parts' })).body.data.params).toEqual({ id: 12 });
    expect((await call({ path: '/api/v1/items/007/parts' })).body.data.params).toEqual({ id: 7 });
    expect((await call({ path: '/api/v1/items/x/parts' })).status).toBe(404);
  });

  it('answers an id that is no positive whole number with 400 naming it', async () => {
    expect(await call({ path: '/api/v1/items/0/parts' })).toMatchObject({
      status: 400,
      body: { code: ErrorCode.BadRequest, extra: { id: 'Must be a positive whole number' } },
    });
  });

  it('answers an unknown path with 404 naming it, and a wrong method with 405', async () => {
    expect(await call({ path: '/api/v1/nothing?x=1' })).toMatchObject({
      status: 404,
      body: { code: ErrorCode.RouteNotFound, msg: 'No such API: GET /api/v1/nothing' },
    });
    expect(await call({ path: '/items/special' })).toMatchObject({ status: 404 });
    expect(await call({ method: 'DELETE', path: '/api/v1/items/1/parts' })).toMatchObject({
      status: 405,
      body: { code: ErrorCode.MethodNotAllowed },
    });
  });

  it('serves HEAD with the GET route', async () => {
    expect((await call({ method: 'HEAD', path: '/api/v1/items/special' })).status).toBe(200);
  });

  it('answers a malformed escape in the path with 400, not 500', async () => {
    const res = await call({ path: '/api/v1/items/%ZZ' });
    expect(res).toMatchObject({
      status: 400,
      body: { code: ErrorCode.BadRequest, extra: { name: expect.any(String) } },
    });
    expect(res.body.msg).toMatch(/malformed/i);
  });
});
