import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxBankHandle, SandboxBankOptions } from './bank/server.js';
import type { SandboxSiteHandle, SandboxSiteOptions } from './site/server.js';

// A sandbox in a process of its own (apartProcess.ts): the sandboxes stand for remote sites and
// banks, so a bench that measures the product runs them apart. Their CPU is not the product's, and
// their answers no longer wait on the stack's event loop. Same server, same options.

const SCRIPT = fileURLToPath(new URL('./apartProcess.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

/** The sandboxes that can run apart: each one's options and what its handle holds besides stop(). */
export interface ApartSandboxes {
  site: { options: SandboxSiteOptions; handle: SandboxSiteHandle };
  bank: { options: SandboxBankOptions; handle: SandboxBankHandle };
}
export type ApartKind = keyof ApartSandboxes;
type Fields<K extends ApartKind> = Omit<ApartSandboxes[K]['handle'], 'stop'>;

export type ApartMessage = { type: 'ready'; fields: Fields<ApartKind> } | { type: 'failed'; error: string };

const names: Record<ApartKind, string> = { site: 'the sandbox site', bank: 'the sandbox banks' };

export async function startApart<K extends ApartKind>(
  kind: K,
  options: ApartSandboxes[K]['options'],
): Promise<ApartSandboxes[K]['handle'] & { pid: number }> {
  const name = names[kind];
  const child = fork(SCRIPT, [kind, JSON.stringify(options)], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const fields = await new Promise<Fields<K>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.on('message', (m: ApartMessage) => {
      clearTimeout(timer);
      if (m.type === 'ready') resolve(m.fields as Fields<K>);
      else reject(new Error(`${name} did not start: ${m.error}`));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it started`));
    });
  });
  return {
    ...fields,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  } as ApartSandboxes[K]['handle'] & { pid: number };
}
