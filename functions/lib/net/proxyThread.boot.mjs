// Entry of the guarded proxies' worker thread (proxyThread.ts). A worker does not inherit the
// main thread's TypeScript loader: tsx is registered here before the worker's own module loads.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);
