// The worker side of proxyThread.ts: starts, syncs and closes guarded proxies on the main side's
// request, and reports what each refused as it happens (before the answer to any later request).
import { parentPort } from 'node:worker_threads';
import { type GuardedProxy, startGuardedProxy } from './guardedProxy.js';
import type { ToMain, ToWorker } from './proxyThread.js';

const port = parentPort;
if (!port) throw new Error('proxyThreadWorker.ts runs as a worker thread (proxyThread.ts)');
const post = (message: ToMain) => port.postMessage(message);
const proxies = new Map<number, GuardedProxy>();

port.on('message', async (message: ToWorker) => {
  const { id } = message;
  switch (message.type) {
    case 'start':
      try {
        const proxy = await startGuardedProxy(
          { allowedHosts: message.allowedHosts },
          {
            refused: (entry) => post({ type: 'refused', id, entry }),
            unresolved: (host) => post({ type: 'unresolved', id, host }),
          },
        );
        proxies.set(id, proxy);
        post({ type: 'answer', id, url: proxy.url });
      } catch (error) {
        post({ type: 'answer', id, error: (error as Error).message });
      }
      return;
    case 'sync':
      post({ type: 'answer', id });
      return;
    case 'close':
      await proxies.get(id)?.close();
      proxies.delete(id);
      post({ type: 'answer', id });
  }
});
