import { describe, expect, inject, it } from 'vitest';
import { handler } from '../../functions/api.js';
import { fromApiResult, toApiEvent } from '../../scripts/local/adapter.js';
import { lambdaContext } from '../../scripts/local/lambdaContext.js';

const { url } = inject('stack');

// Headers Node's HTTP server adds on the wire, which API Gateway adds too.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const PER_REQUEST = new Set(['x-request-id', 'date']);

interface Case {
  title: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const cases: Case[] = [
  { title: 'the health check with a repeated query key', method: 'GET', path: '/api/v1/health?x=1&x=2' },
  { title: 'an unknown route', method: 'GET', path: '/api/v1/no/such/thing' },
  { title: 'a method the route does not take', method: 'DELETE', path: '/api/v1/health' },
  {
    title: 'a malformed JSON body',
    method: 'POST',
    path: '/api/v1/login',
    headers: { 'content-type': 'application/json' },
    body: '{"username": ',
  },
  {
    title: 'a login that fails validation',
    method: 'POST',
    path: '/api/v1/login',
    headers: { 'content-type': 'application/json' },
    body: '{"username": "", "password": ""}',
  },
];

/** The parts of a JSON envelope that are the same for the same request. */
function stable(body: string): unknown {
  const parsed = JSON.parse(body);
  delete parsed.request_id;
  if (parsed.data && typeof parsed.data === 'object') delete parsed.data.time;
  return parsed;
}

describe('the local HTTP server is API Gateway for the API Lambda', () => {
  it.each(cases)('answers $title exactly as the handler does when invoked directly', async (c) => {
    const headers = { 'x-trace-id': 'trace-adapter-test', accept: 'application/json', ...c.headers };
    const viaServer = await fetch(url + c.path, { method: c.method, headers, body: c.body });
    const serverBody = await viaServer.text();

    const event = toApiEvent({
      method: c.method,
      url: c.path,
      headers: { ...headers, host: new URL(url).host },
      body: Buffer.from(c.body ?? ''),
      sourceIp: '127.0.0.1',
      protocol: 'HTTP/1.1',
    });
    const direct = fromApiResult(
      await handler(event, lambdaContext({ name: 'api', memoryMb: 1024, timeoutSeconds: 29 }, 'us-east-1')),
    );

    expect(viaServer.status).toBe(direct.status);
    expect(stable(serverBody)).toEqual(stable(direct.body.toString('utf8')));
    const serverHeaders = Object.fromEntries(viaServer.headers);
    for (const [name, value] of Object.entries(direct.headers)) {
      if (!PER_REQUEST.has(name)) expect(serverHeaders[name], name).toBe(String(value));
    }
    const extra = Object.keys(serverHeaders).filter((h) => !(h in direct.headers) && !TRANSPORT_HEADERS.has(h));
    expect(extra).toEqual([]);
  });

  it('puts the request id of the gateway in the response header and the failure envelope', async () => {
    const res = await fetch(`${url}/api/v1/unknown`);
    const body = (await res.json()) as { request_id: string };
    expect(res.status).toBe(404);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await fetch(`${url}/api/v1/health`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
