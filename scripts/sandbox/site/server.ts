import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SandboxSiteHandle {
  url: string;
  stop(): Promise<void>;
}

export async function startSandboxSite(opts: { port: number; host?: string }): Promise<SandboxSiteHandle> {
  const host = opts.host ?? '127.0.0.1';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>4D Agent</title><h1>4D Agent</h1>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
