import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/envelope.js';
import { api, type Json, login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const { url } = stack;
const client = api(url);

/** Sends a body with a declared length and reads the answer, even if the server stops reading early. */
function postLarge(path: string, bytes: number): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': bytes },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    // The server may answer and close before all is sent; that is the point.
    req.on('close', () => {
      sent = bytes;
    });
    pump();
  });
}

describe('client mistakes get a clear envelope, never a 500', () => {
  it('refuses malformed JSON with 400 and says so', async () => {
    const res = await client.post('/api/v1/login', {
      rawBody: '{"username": "admin", ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.MalformedJson, msg: 'Malformed JSON body' } });
    expect(res.body.request_id).toBeTruthy();
    expect(res.body).not.toHaveProperty('data');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await client.post('/api/v1/login', {
      rawBody: 'username=admin&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res).toMatchObject({ status: 415, body: { code: ErrorCode.UnsupportedMediaType } });
    expect(res.body.msg).toMatch(/JSON/);
  });

  it('refuses a JSON body over 1 MB with 413', async () => {
    const res = await client.post('/api/v1/login', {
      body: { username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(res).toMatchObject({ status: 413, body: { code: ErrorCode.PayloadTooLarge } });
  });

  it('refuses a body over 6 MB at the gateway with 413 in the envelope', async () => {
    const res = await postLarge('/api/v1/login', 7 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: ErrorCode.PayloadTooLarge, msg: 'Request body is larger than 6 MB' });
    expect(res.body.request_id).toBeTruthy();
  });

  it('answers an unknown API route with a 404 envelope naming the route', async () => {
    const res = await client.get('/api/v1/no-such-route?x=1');
    expect(res).toMatchObject({
      status: 404,
      body: { code: ErrorCode.RouteNotFound, msg: 'No such API: GET /api/v1/no-such-route' },
    });
  });

  it('answers a path outside /api/v1 under /api with a 404 envelope, not the web app', async () => {
    const res = await client.get('/api/v2/health');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(ErrorCode.RouteNotFound);
  });

  it('answers a method the route does not take with 405', async () => {
    const res = await client.put('/api/v1/health', { body: {} });
    expect(res).toMatchObject({ status: 405, body: { code: ErrorCode.MethodNotAllowed } });
  });

  it('refuses a missing body on login with field messages', async () => {
    const res = await client.post('/api/v1/login', { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.Validation);
    expect(res.body.extra).toHaveProperty('username');
  });

  it('answers a malformed escape in a path parameter with 400, even without a token', async () => {
    const res = await client.get('/api/v1/check/results/%ZZ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: ErrorCode.BadRequest });
    expect(res.body.msg).toMatch(/malformed/i);
  });

  it('refuses a filter named after an Object property with 400', async () => {
    const k = kit(stack);
    const username = uniqueName('proto');
    await k.createUser(username, 'proto-pass-1', 'super');
    const token = await login(url, username, 'proto-pass-1');
    k.destroy();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await client.get(`/api/v1/sites?${name}=x`, { token, headers: fromIp(uniqueIp()) });
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 400,
        code: ErrorCode.BadRequest,
      });
    }
  });
});
