import { describe, expect, it } from 'vitest';
import { envRef } from '../../shared/schemas/patrolFile.js';
import { type Io, main } from './main.js';

// The command's refusals that need no stack: each says what is wrong, exits 2, and calls nothing.

function run(args: string[], env: Record<string, string> = {}, files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: string[] = [];
  const io: Io = {
    env,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readFile: async (p) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`);
      return files[p];
    },
    fetch: (async (url: string) => {
      calls.push(String(url));
      throw new Error('no network in this test');
    }) as unknown as typeof fetch,
  };
  return main(args, io).then((code) => ({ code, out, err: err.join('\n'), calls }));
}

const ENV = { PATROL_URL: 'https://patrol.example.com', PATROL_TOKEN: 'pat_x' };

describe('npm run patrol', () => {
  it('refuses an unknown option, a missing -f, an unreadable file and a missing PATROL_URL', async () => {
    expect(await run(['apply', '--prnue', '-f', 'a.yaml'], ENV)).toMatchObject({
      code: 2,
      err: expect.stringContaining("Unknown option '--prnue'"),
    });
    expect(await run(['apply'], ENV)).toMatchObject({ code: 2, err: expect.stringContaining('apply needs -f FILE') });
    expect(await run(['apply', '-f', 'gone.yaml'], ENV)).toMatchObject({
      code: 2,
      err: expect.stringContaining('Cannot read gone.yaml'),
    });
    expect(await run(['export'], {})).toMatchObject({
      code: 2,
      err: expect.stringContaining('PATROL_URL and PATROL_TOKEN must be set'),
    });
    expect(await run(['destroy'], ENV)).toMatchObject({
      code: 2,
      err: expect.stringContaining('Unknown command destroy'),
    });
  });

  it('checks the file before it calls the API', async () => {
    const r = await run(['apply', '-f', 'p.yaml', '--dry-run'], ENV, {
      'p.yaml':
        'version: 1\nsites:\n  - name: A\n    url: https://a.example.com\n    accounts: [{ user: u, pwd: secret }]\n',
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`sites.0.accounts.0.pwd: Write a password as ${envRef('NAME')}`);
    expect(r.calls).toEqual([]);
  });

  it('says so when the stack does not answer', async () => {
    const r = await run(['export'], ENV);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Cannot reach the API: GET https://patrol.example.com/api/v1/');
    expect(r.err).toContain('did not answer: no network in this test');
  });
});

describe('the API client', () => {
  it('waits out a short rate limit, and reports a long one with the API message', async () => {
    const { patrolApi } = await import('./client.js');
    const answers = [
      new Response(JSON.stringify({ code: 4290, msg: 'Too many calls' }), {
        status: 429,
        headers: { 'retry-after': '1' },
      }),
      new Response(JSON.stringify({ code: 1000, msg: 'SUCCESS', data: { id: 7 } }), { status: 200 }),
      new Response(JSON.stringify({ code: 4290, msg: 'Too many maintenance windows; try again in 3600 s' }), {
        status: 429,
        headers: { 'retry-after': '3600' },
      }),
    ];
    const calls: string[] = [];
    const api = patrolApi('https://patrol.example.com/api/v1/', 'pat_x', (async (url: string) => {
      calls.push(url);
      return answers.shift();
    }) as unknown as typeof fetch);
    expect(await api.send('POST', '/sites', {})).toEqual({ id: 7 });
    expect(calls).toEqual(['https://patrol.example.com/api/v1/sites', 'https://patrol.example.com/api/v1/sites']);
    await expect(api.send('POST', '/maintenance', {})).rejects.toThrow('Too many maintenance windows');
  });
});
