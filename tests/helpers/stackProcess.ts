import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The local stack exactly as `npm start` runs it (scripts/local/main.ts), in a child process of
// its own (its own process.env), on a free port; and the means to kill it the way a machine dies.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 40_000;

export interface RunningStack {
  child: ChildProcess;
  url: string;
  /** The handlers' environment: engine endpoints, queue URLs, TABLE_NAME, sandbox addresses... */
  env: Record<string, string>;
  /** Where its output goes (DATA_DIR/stack.log unless told). */
  logFile: string;
}

/**
 * Starts a stack on `dataDir` (no demo data, the second factor `off` unless `env` says otherwise)
 * with `env` on top of this process's environment, and resolves when it is ready. Its output goes to the log file, printed when the start fails.
 */
export async function startStackProcess(opts: {
  dataDir: string;
  adminPassword: string;
  env?: Record<string, string>;
  logFile?: string;
}): Promise<RunningStack> {
  const logFile = opts.logFile ?? join(opts.dataDir, 'stack.log');
  const logFd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      DEMO: '0',
      ADMIN_PASSWORD: opts.adminPassword,
      // Tests sign in with a password alone unless they test the second factor (env: AUTH_SECOND_FACTOR).
      AUTH_SECOND_FACTOR: 'off',
      ...opts.env,
    },
    stdio: ['ignore', logFd, logFd, 'ipc'],
  });
  try {
    const ready = await new Promise<{ url: string; env: Record<string, string> }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no health within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.on('message', (m: { type?: string; url: string; env: Record<string, string> }) => {
        if (m?.type !== 'ready') return;
        clearTimeout(timer);
        resolve(m);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the local stack exited with ${code}`));
      });
    });
    return { child, url: ready.url, env: ready.env, logFile };
  } catch (error) {
    child.kill('SIGKILL');
    console.error(`local stack log (${logFile}):\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    throw error;
  }
}

/** Stops a stack as Ctrl-C does (it drains its running work), killing it if it takes too long. */
export async function stopStackProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** `root` and every process under it (children, theirs...), read from /proc: Linux only. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length; ) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * A machine that dies: every process of the stack's tree (the server, its engines' children, the
 * checker's process, Chromium) is first stopped, so none reacts to another's death, then SIGKILLed.
 * Resolves when the stack's own process has exited. Answers how many processes it killed.
 */
export async function killTree(child: ChildProcess): Promise<number> {
  const exited = new Promise<void>((r) =>
    child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
  );
  const send = (pids: Iterable<number>, sig: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // exited meanwhile
      }
    }
  };
  // Stopped until the tree holds still: a process may have started a child while it was read.
  const tree = new Set<number>();
  for (let fresh = processTree(child.pid as number); fresh.length; ) {
    send(fresh, 'SIGSTOP');
    for (const pid of fresh) tree.add(pid);
    fresh = processTree(child.pid as number).filter((pid) => !tree.has(pid));
  }
  send(tree, 'SIGKILL');
  await exited;
  return tree.size;
}
