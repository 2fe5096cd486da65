// What every sandbox server (site, bank, Telegram, webhook receiver) does alike: listen on a port
// and stop for good, with the waits of its slow answers cleared, so a test's stop never leaves a
// timer or a kept-alive connection behind.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A sandbox's address and its stop, as each start function answers them. */
export interface ListeningSandbox {
  url: string;
  stop(): Promise<void>;
}

/** The waits of a sandbox's slow answers: `clear` drops every one still pending (on stop). */
export function sandboxTimers(): { sleep(ms: number): Promise<void>; clear(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
      }),
    clear: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * Listens on `port` (0 for a free one) at `host`. Its stop runs `onStop` first (clearing the
 * sandbox's timers), refuses new connections and closes the open ones, kept-alive ones included,
 * so it answers at once rather than when the clients let go.
 */
export async function listenSandbox(
  server: Server,
  port: number,
  host: string,
  onStop?: () => void,
): Promise<ListeningSandbox> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        onStop?.();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
