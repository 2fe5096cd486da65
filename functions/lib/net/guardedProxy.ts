// An egress proxy that applies the private-address guard to every connection a client makes:
// Chromium is pointed at it for a check, so the first page, every redirect, subresource, iframe,
// worker and WebSocket goes through the same address check. The proxy resolves the host itself and
// connects to the address it checked, so DNS rebinding (public at save time, private later, or
// between a check and a connect) cannot slip through the gap between checking and connecting.
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { type OutboundGuardOptions, OutboundUrlRefusedError, resolveOutboundTarget } from './outboundUrlGuard.js';

export interface RefusedRequest {
  /** `http://host:port/path` or `host:port` for a tunnel; no query string (it may carry tokens). */
  target: string;
  reason: string;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server or a context's proxyServer. */
  readonly url: string;
  /** What the guard refused so far, oldest first (at most 50 kept); names that did not resolve are not refusals. */
  readonly refused: readonly RefusedRequest[];
  /** Host names that did not resolve (at most 50), so a caller can say why a page did not load. */
  readonly unresolved: readonly string[];
  close(): Promise<void>;
}

// Hop-by-hop headers of the client-to-proxy leg; the rest is forwarded as the client sent it.
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']);

function refusalPage(reason: string): string {
  const safe = reason.replace(/[<>&"]/g, '');
  return `<!doctype html><title>Refused</title><h1>Refused by Patrol</h1><p>${safe}</p>`;
}

/** Header on a 502 the proxy made itself because the site could not be reached (its value: the error code). */
export const PROXY_ERROR_HEADER = 'x-patrol-proxy-error';

/** Told of each refusal and unresolved name as it is kept (a proxy on another thread reports them so). */
export interface ProxyListener {
  refused?(entry: RefusedRequest): void;
  unresolved?(host: string): void;
}

export async function startGuardedProxy(
  opts: OutboundGuardOptions = {},
  listener: ProxyListener = {},
): Promise<GuardedProxy> {
  const refused: RefusedRequest[] = [];
  const unresolved: string[] = [];
  const noteUnresolved = (host: string) => {
    if (unresolved.length >= 50 || unresolved.includes(host)) return;
    unresolved.push(host);
    listener.unresolved?.(host);
  };
  const sockets = new Set<Socket>();
  const remember = (target: string, reason: string) => {
    if (refused.length >= 50) return;
    const entry = { target, reason };
    refused.push(entry);
    listener.refused?.(entry);
  };

  const server: Server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad proxy request');
      return;
    }
    const port = Number(url.port || 80);
    const shown = `${url.protocol}//${url.host}${url.pathname}`;
    resolveOutboundTarget(url.hostname, port, opts).then(
      (target) => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
        const upstream = httpRequest(
          { host: target.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers },
          (answer: IncomingMessage) => {
            res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
            answer.pipe(res);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          // Marked as the proxy's own answer: the site never answered (refused, reset), which the
          // checker reports as a network failure rather than as the site's 502.
          if (!res.headersSent)
            res.writeHead(502, { 'content-type': 'text/plain', [PROXY_ERROR_HEADER]: error.code ?? 'ERROR' });
          res.end();
        });
        req.pipe(upstream);
      },
      (error: unknown) => {
        // A name that does not resolve is a failed lookup, as without the proxy, not a refusal.
        // Closing without an answer makes Chromium fail the load at once, as a DNS failure would.
        if (error instanceof OutboundUrlRefusedError && error.unresolved) {
          noteUnresolved(url.hostname);
          req.socket.destroy();
          return;
        }
        const reason = error instanceof OutboundUrlRefusedError ? error.reason : 'refused';
        remember(shown, reason);
        res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end(refusalPage(reason));
      },
    );
  });

  // HTTPS and WebSockets: a CONNECT tunnel to the checked address; TLS stays end to end.
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, portText] = match;
    resolveOutboundTarget(host, Number(portText), opts).then(
      (target) => {
        const upstream = connect(Number(portText), target.address, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
      },
      (error: unknown) => {
        if (error instanceof OutboundUrlRefusedError && error.unresolved) {
          noteUnresolved(host);
          client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
          return;
        }
        remember(`${host}:${portText}`, error instanceof OutboundUrlRefusedError ? error.reason : 'refused');
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      },
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    unresolved,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
