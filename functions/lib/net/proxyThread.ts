// Guarded proxies served by a worker thread of their own (one per process, started on first use).
//
// Why: a local checker runs several checks in one process, and the process's event loop also
// serializes and sends their DynamoDB calls. Every request a page made passed through its check's
// proxy on that same loop, so each waited behind the other checks' store work: on the check bench
// the engine's browser runs took ~5-7 % longer than the bare script's (p50 2.49-2.54 s against
// 2.33 s), and as fast as without a proxy once it was off that loop (2.37 s). (Lambda's Chromium
// has one proxy set at launch and runs one check per instance: launchBrowser keeps that one
// in-process.)

import { Worker } from 'node:worker_threads';
import type { GuardedProxy, RefusedRequest } from './guardedProxy.js';

/** What the main side asks; each is answered once, in order with the reports sent before the answer. */
export type ToWorker =
  | { type: 'start'; id: number; allowedHosts: readonly string[] }
  | { type: 'sync'; id: number }
  | { type: 'close'; id: number };
export type ToMain =
  | { type: 'answer'; id: number; url?: string; error?: string }
  | { type: 'refused'; id: number; entry: RefusedRequest }
  | { type: 'unresolved'; id: number; host: string };

/** A proxy on the thread. `sync` resolves once every report it sent before has arrived. */
export interface ThreadProxy extends GuardedProxy {
  sync(): Promise<void>;
}

interface Proxied {
  refused: RefusedRequest[];
  unresolved: string[];
  /** The answers awaited, oldest first: the worker answers one proxy's requests in order. */
  waiting: Array<{ resolve(url?: string): void; reject(error: Error): void }>;
}

let worker: Worker | undefined;
let lastId = 0;
let asked = 0;
const proxies = new Map<number, Proxied>();

/** The thread holds the process open only while an answer is awaited (a proxy in use is a check's). */
const awaiting = (delta: number) => {
  asked += delta;
  if (asked > 0) worker?.ref();
  else worker?.unref();
};

function proxyWorker(): Worker {
  if (worker) return worker;
  // The worker's module is TypeScript locally (tsx) and is never bundled: Lambda uses no per-check proxy.
  const entry = new URL(`./proxyThreadWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  // No flags of this process (an --input-type would stop the worker): its entry registers what it needs.
  const started = new Worker(new URL('./proxyThread.boot.mjs', import.meta.url), {
    workerData: { entry: entry.href },
    execArgv: [],
  });
  started.on('message', (message: ToMain) => {
    const proxied = proxies.get(message.id);
    if (!proxied) return;
    if (message.type === 'refused') proxied.refused.push(message.entry);
    else if (message.type === 'unresolved') proxied.unresolved.push(message.host);
    else {
      const waiter = proxied.waiting.shift();
      awaiting(-1);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.url);
    }
  });
  // A dead thread fails what waits on it; the next proxy starts a new one.
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const proxied of proxies.values())
      for (const waiter of proxied.waiting.splice(0)) {
        awaiting(-1);
        waiter.reject(error);
      }
    proxies.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the guarded proxies' thread exited with ${code}`)));
  worker = started;
  return started;
}

function ask(id: number, message: ToWorker): Promise<string | undefined> {
  const proxied = proxies.get(id);
  if (!proxied) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    proxied.waiting.push({ resolve, reject });
    awaiting(1);
    proxyWorker().postMessage(message);
  });
}

/** A guarded proxy (guardedProxy.ts) on the proxies' thread; what it refuses is reported back as it happens. */
export async function startGuardedProxyThread(opts: { allowedHosts?: readonly string[] } = {}): Promise<ThreadProxy> {
  const id = ++lastId;
  const proxied: Proxied = { refused: [], unresolved: [], waiting: [] };
  proxies.set(id, proxied);
  const url = await ask(id, { type: 'start', id, allowedHosts: opts.allowedHosts ?? [] }).catch((error: Error) => {
    proxies.delete(id);
    throw new Error(`the guarded proxy did not start: ${error.message}`);
  });
  return {
    url: url as string,
    refused: proxied.refused,
    unresolved: proxied.unresolved,
    sync: async () => {
      await ask(id, { type: 'sync', id });
    },
    close: async () => {
      await ask(id, { type: 'close', id }).catch(() => undefined);
      proxies.delete(id);
    },
  };
}
