import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler } from './staticFiles.js';

let root: string;
const servers: Server[] = [];

async function serve(dir: string, mediaOrigins?: string[]): Promise<string> {
  const handler = createStaticHandler(dir, mediaOrigins ? { mediaOrigins: () => mediaOrigins } : {});
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
  await writeFile(join(root, 'dist', 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"]}');
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

  it('sends a strict CSP that allows media from the video store only, and forbids framing', async () => {
    const url = await serve(join(root, 'dist'), ['http://127.0.0.1:4569']);
    for (const path of ['/', '/sites/12', '/assets/index-abc123.js']) {
      const res = await fetch(`${url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
      );
      expect(directives).toMatchObject({
        'script-src': "'self'",
        'object-src': "'none'",
        'frame-ancestors': "'none'",
        'media-src': "'self' http://127.0.0.1:4569",
        'img-src': "'self' http://127.0.0.1:4569 data:",
        'default-src': "'self'",
      });
      expect(directives['script-src']).not.toContain('unsafe');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('takes the local S3 endpoint as the media origin by default', async () => {
    const saved = process.env.S3_ENDPOINT;
    process.env.S3_ENDPOINT = 'http://127.0.0.1:45999/';
    try {
      const res = await fetch(`${await serve(join(root, 'dist'))}/`);
      expect(res.headers.get('content-security-policy')).toContain("media-src 'self' http://127.0.0.1:45999;");
    } finally {
      if (saved === undefined) delete process.env.S3_ENDPOINT;
      else process.env.S3_ENDPOINT = saved;
    }
  });

  it('serves no source map, even one left in the build folder', async () => {
    const url = await serve(join(root, 'dist'));
    const res = await fetch(`${url}/assets/index-abc123.js.map`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('sources');
  });
});
