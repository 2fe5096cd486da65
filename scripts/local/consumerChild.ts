import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { QueueConsumer } from './consumer.js';
import type { ChildMessage, ConsumerSpec } from './consumerProcess.js';
import { cpuProfileFlags } from './cpuProfileFlags.js';
import { REPO_ROOT } from './loadHandler.js';

const SCRIPT = fileURLToPath(new URL('./consumerProcess.ts', import.meta.url));
/** Loading a handler (and its imports through tsx) takes a few seconds on a busy machine. */
const READY_TIMEOUT_MS = 60_000;

/**
 * Runs scripts/local/consumerProcess.ts with exactly `env` (nothing of this process's own
 * environment) and resolves once it polls its queue. Its stop() drains it like an in-process one.
 */
export async function startConsumerChild(spec: ConsumerSpec, env: Record<string, string>): Promise<QueueConsumer> {
  const child = fork(SCRIPT, [JSON.stringify(spec)], {
    cwd: REPO_ROOT,
    env,
    // PATROL_CONSUMER_CPU_PROF=<dir>: each consumer's own CPU profile, written as it exits.
    execArgv: ['--import', 'tsx', ...cpuProfileFlags('PATROL_CONSUMER_CPU_PROF')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = false;
  let stopping: Promise<boolean> | undefined;
  const exit = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      exited = true;
      r(code);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`consumer ${spec.def.name} did not start within ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.on('message', (m: ChildMessage) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      resolve();
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`consumer ${spec.def.name} exited with ${code} before it started`));
    });
  });
  void exit.then((code) => {
    if (!stopping) console.error(`[local] consumer ${spec.def.name} (pid ${child.pid}) exited with ${code}`);
  });
  return {
    // Runs in the child; the parent only learns whether it drained.
    inFlight: 0,
    stop(timeoutMs = spec.drainMs) {
      stopping ??= (async () => {
        if (exited) return true;
        const stopped = new Promise<boolean>((r) =>
          child.on('message', (m: ChildMessage) => {
            if (m?.type === 'stopped') r(m.drained);
          }),
        );
        child.send({ type: 'stop' });
        let timer: NodeJS.Timeout | undefined;
        const drained = await Promise.race([
          stopped,
          exit.then(() => true),
          new Promise<boolean>((r) => {
            // A little beyond the child's own bound: it reports before it gives up.
            timer = setTimeout(() => r(false), timeoutMs + 5_000);
          }),
        ]);
        clearTimeout(timer);
        if (!exited) {
          await Promise.race([exit, new Promise((r) => setTimeout(r, 2_000))]);
          if (!exited) child.kill('SIGKILL');
        }
        return drained;
      })();
      return stopping;
    },
  };
}
