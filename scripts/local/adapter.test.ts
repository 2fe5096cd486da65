import { describe, expect, it } from 'vitest';
import { fromApiResult, toApiEvent } from './adapter.js';

const base = { method: 'GET', headers: {}, body: Buffer.alloc(0), sourceIp: '10.0.0.7', protocol: 'HTTP/1.1' };

describe('toApiEvent', () => {
  it('builds a payload 2.0 event with the path, the raw query and repeated keys joined by commas', () => {
    const event = toApiEvent({ ...base, url: '/api/v1/sites?status=1&status=2&q=a%20b', now: 1_700_000_000_000 });
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/api/v1/sites',
      rawQueryString: 'status=1&status=2&q=a%20b',
      queryStringParameters: { status: '1,2', q: 'a b' },
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'GET', path: '/api/v1/sites', protocol: 'HTTP/1.1', sourceIp: '10.0.0.7' },
        stage: '$default',
        timeEpoch: 1_700_000_000_000,
        time: '14/Nov/2023:22:13:20 +0000',
      },
    });
    expect(event.body).toBeUndefined();
  });

  it('lower-cases headers and moves cookies into their own array', () => {
    const event = toApiEvent({
      ...base,
      url: '/api/v1/info',
      headers: { 'X-Trace-Id': 't1', cookie: 'a=1; b=2', 'user-agent': 'test' },
    });
    expect(event.headers['x-trace-id']).toBe('t1');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.requestContext.http.userAgent).toBe('test');
    expect(event.queryStringParameters).toBeUndefined();
  });

  it('passes JSON as text and binary bodies as base64', () => {
    const json = toApiEvent({
      ...base,
      method: 'POST',
      url: '/x',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"a":"é"}'),
    });
    expect(json).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });
    const bytes = Buffer.from([0, 255, 1, 2]);
    const bin = toApiEvent({
      ...base,
      method: 'POST',
      url: '/x',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(bin.isBase64Encoded).toBe(true);
    expect(Buffer.from(bin.body as string, 'base64')).toEqual(bytes);
  });
});

describe('fromApiResult', () => {
  it('writes status, headers, cookies and a base64 body back as bytes', () => {
    const reply = fromApiResult({
      statusCode: 302,
      headers: { Location: '/login' },
      cookies: ['a=1; HttpOnly'],
      body: Buffer.from('hi').toString('base64'),
      isBase64Encoded: true,
    });
    expect(reply.status).toBe(302);
    expect(reply.headers).toMatchObject({ location: '/login', 'set-cookie': ['a=1; HttpOnly'] });
    expect(reply.body.toString()).toBe('hi');
  });

  it('takes a result without statusCode as a JSON 200, as the gateway does', () => {
    const reply = fromApiResult({ ok: true } as never);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body.toString())).toEqual({ ok: true });
  });
});
