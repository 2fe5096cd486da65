import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// What the operator scripts (preflight, repair, restore) share: their arguments and the AWS CLI.
// Stack outputs and Lambda invocations go through the AWS CLI the deploy guide already asks for,
// with the shell's credentials and region (the SDK's CloudFormation and Lambda clients are not
// dependencies of this project); DynamoDB and Service Quotas through the SDK.

const run = promisify(execFile);

export interface OpsArgs {
  stage: string;
  /** `-c key=value` passed on to `cdk deploy` (alarmEmail, monthlyBudgetUsd). */
  context: Record<string, string>;
  flags: Set<string>;
  values: Record<string, string>;
}

/** `--stage <s>`, `--<name> <value>` for the names in `valued`, `--<flag>`, `-c key=value`. */
export function parseOpsArgs(argv: string[], usage: string, valued: readonly string[] = []): OpsArgs {
  const args: OpsArgs = { stage: '', context: {}, flags: new Set(), values: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-c' || arg === '--context') {
      const [key, ...rest] = (argv[++i] ?? '').split('=');
      if (!key || rest.length === 0) throw new Error(`${arg} takes key=value (${usage})`);
      args.context[key] = rest.join('=');
    } else if (arg === '--stage') args.stage = argv[++i] ?? '';
    else if (arg.startsWith('--') && valued.includes(arg.slice(2))) {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} takes a value (${usage})`);
      args.values[arg.slice(2)] = value;
    } else if (arg.startsWith('--')) args.flags.add(arg.slice(2));
    else throw new Error(`Unknown argument '${arg}' (${usage})`);
  }
  if (!args.stage) throw new Error(`--stage is required (${usage})`);
  return args;
}

/** `aws <args> --output json`, parsed; the CLI's own message on failure. */
export async function awsJson<T = unknown>(args: string[]): Promise<T> {
  try {
    const { stdout } = await run('aws', [...args, '--output', 'json'], { maxBuffer: 16 * 1024 * 1024 });
    return (stdout.trim() ? JSON.parse(stdout) : {}) as T;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`aws ${args.slice(0, 2).join(' ')} failed: ${(e.stderr || e.message).trim()}`);
  }
}

/** The main stack's outputs of a stage (`Patrol-<stage>`), by name. */
export async function stageOutputs(stage: string): Promise<Record<string, string>> {
  const out = await awsJson<{ Stacks?: { Outputs?: { OutputKey: string; OutputValue: string }[] }[] }>([
    'cloudformation',
    'describe-stacks',
    '--stack-name',
    `Patrol-${stage}`,
  ]);
  return Object.fromEntries((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}

/** One output, or a message saying which deploy adds it. */
export function output(outputs: Record<string, string>, name: string, stage: string): string {
  const value = outputs[name];
  if (!value) throw new Error(`Stack Patrol-${stage} has no output ${name}: deploy the current version first`);
  return value;
}

/**
 * Invokes a function's `live` alias. `event`: queued (the call returns at once; Lambda retries a
 * failed one twice), which the repair needs: a synchronous call of a 300 s function outlives the CLI's
 * read timeout, and the CLI's retry started another repair.
 */
export async function invokeLive(fn: string, payload: unknown, mode: 'event' | 'wait'): Promise<unknown> {
  const file = `/tmp/patrol-invoke-${process.pid}-${Date.now()}.json`;
  const reply = await awsJson<{ FunctionError?: string }>([
    'lambda',
    'invoke',
    '--function-name',
    fn,
    '--qualifier',
    'live',
    '--invocation-type',
    mode === 'event' ? 'Event' : 'RequestResponse',
    '--cli-binary-format',
    'raw-in-base64-out',
    // A waited call lasts up to the function's timeout; the CLI would cut it at 60 s and retry.
    '--cli-read-timeout',
    '0',
    '--payload',
    JSON.stringify(payload ?? {}),
    file,
  ]);
  if (mode === 'event') return undefined;
  const { readFile, rm } = await import('node:fs/promises');
  const body = await readFile(file, 'utf8').catch(() => '');
  await rm(file, { force: true });
  if (reply.FunctionError) throw new Error(`${fn} failed: ${body}`);
  return body ? JSON.parse(body) : undefined;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs a script's main: its message and exit code 2 on a usage or AWS error. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 2;
    },
  );
}
