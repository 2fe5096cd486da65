import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { CONSOLE_HEADERS, consoleCsp } from '../../shared/consoleHeaders.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Patrol</title>
<h1>The web app is not built</h1>
<p>Run <code>npm run build</code> (or start with <code>npm start</code>, which builds it), then reload.</p>
<p>The API is up under <a href="/api/v1/health">/api/v1/health</a>.</p>`;

async function fileAt(path: string): Promise<{ path: string; size: number; mtime: Date } | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? { path, size: s.size, mtime: s.mtime } : undefined;
  } catch {
    return undefined;
  }
}

export interface StaticOptions {
  /**
   * Origins the console may load videos and screenshots from (CSP img-src/media-src). Read per
   * request, as the local S3 engine starts after this server; by default S3_ENDPOINT's origin.
   */
  mediaOrigins?: () => string[];
}

const s3EndpointOrigin = () => {
  try {
    return process.env.S3_ENDPOINT ? [new URL(process.env.S3_ENDPOINT).origin] : [];
  } catch {
    return [];
  }
};

/**
 * The built console from `root` (web/dist), under the console's CSP and framing headers.
 * Source maps are never served, even if a build left some behind. Unknown paths get index.html so that the
 * router's history-mode URLs survive a reload, except under /assets where a missing file
 * must stay a 404 (HTML served as a script breaks the page in confusing ways).
 */
export function createStaticHandler(root: string, options: StaticOptions = {}) {
  const mediaOrigins = options.mediaOrigins ?? s3EndpointOrigin;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return;
    }
    const index = await fileAt(join(root, 'index.html'));
    if (!index) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(method === 'HEAD' ? undefined : NOT_BUILT);
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    const candidate = normalize(join(root, pathname));
    const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
    let file = inside ? await fileAt(candidate) : undefined;
    const isAsset = pathname.startsWith('/assets/');
    if (pathname.toLowerCase().endsWith('.map')) file = undefined;
    if (!file && (isAsset || !inside || pathname.toLowerCase().endsWith('.map'))) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    file ??= index;
    res.writeHead(200, {
      'content-type': MIME[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
      'content-length': file.size,
      'last-modified': file.mtime.toUTCString(),
      // Vite puts a content hash in every asset name, so an asset URL never changes content.
      'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...CONSOLE_HEADERS,
      'content-security-policy': consoleCsp(mediaOrigins()),
    });
    if (method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file.path).pipe(res);
  };
}
