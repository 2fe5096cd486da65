import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxBankHandle, SandboxBankOptions } from './server.js';

// The sandbox banks in a process of their own (scripts/sandbox/bank/process.ts): they stand for
// remote banks, so a bench that measures the product's CPU runs them apart (their CPU is not the
// product's, and their answers no longer share the stack's event loop). Same server, same options.

const SCRIPT = fileURLToPath(new URL('./process.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

export type ApartMessage =
  | { type: 'ready'; url: string; kbzUrl: string; ayaUrl: string }
  | { type: 'failed'; error: string };

export async function startSandboxBankApart(opts: SandboxBankOptions): Promise<SandboxBankHandle & { pid: number }> {
  const child = fork(SCRIPT, [JSON.stringify(opts)], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ready = await new Promise<Extract<ApartMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox banks did not start within ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.on('message', (m: ApartMessage) => {
      clearTimeout(timer);
      if (m.type === 'ready') resolve(m);
      else reject(new Error(`the sandbox banks did not start: ${m.error}`));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error('the sandbox banks exited before they started'));
    });
  });
  return {
    url: ready.url,
    kbzUrl: ready.kbzUrl,
    ayaUrl: ready.ayaUrl,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
