import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler } from './staticFiles.js';

let root: string;
const servers: Server[] = [];

async function serve(dir: string): Promise<string> {
  const handler = createStaticHandler(dir);
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'patrol-static-'));
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  await writeFile(join(root, 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(root, 'dist', 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(join(root, 'secret.txt'), 'outside');
});

afterAll(async () => {
  for (const s of servers) s.close();
  await rm(root, { recursive: true, force: true });
});

describe('the web app files', () => {
  it('serves hashed assets with a year-long cache and index.html without one', async () => {
    const url = await serve(join(root, 'dist'));
    const asset = await fetch(`${url}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const index = await fetch(`${url}/`);
    expect(await index.text()).toContain('id="root"');
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a client-side route with index.html, so a reload of /sites/12 works', async () => {
    const url = await serve(join(root, 'dist'));
    const res = await fetch(`${url}/sites/12?tab=accounts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('id="root"');
  });

  it('answers a missing asset with 404 rather than the page', async () => {
    const url = await serve(join(root, 'dist'));
    expect((await fetch(`${url}/assets/gone-999.js`)).status).toBe(404);
  });

  it('never serves a file outside the web app folder', async () => {
    const url = await serve(join(root, 'dist'));
    const res = await fetch(`${url}/..%2fsecret.txt`);
    expect(await res.text()).not.toContain('outside');
  });

  it('says how to build the app when it is not built', async () => {
    const url = await serve(join(root, 'nothing-here'));
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });
});
