// npm run nag -- --stage prod [-c alarmEmail=ops@example.com] [--all]
//
// Synthesizes one stage offline (no bundling, no AWS account needed) with the settings cdk.json
// gives it, holds it to the AwsSolutions and Serverless packs of cdk-nag, and prints the findings
// nobody acknowledged (infra/nag/nagSuppressions.ts) as JSON on stdout. Exits 1 when any of them
// is an error, 2 on a usage or synth error. `--all` prints warnings as well as errors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { nagFindings } from '../infra/nag/nagFindings.js';
import { addPatrolStage } from '../infra/patrolStage.js';
import { stageFromContext } from '../infra/stageFromContext.js';
import { loadCdkContext } from '../infra/cdkContext.js';

/** An address for the template only: the findings do not depend on who receives the alarms. */
const PLACEHOLDER_EMAIL = 'alarms@example.invalid';

function parseArgs(argv: string[]): { stage: string; context: Record<string, string>; all: boolean } {
  const context: Record<string, string> = {};
  let stage = 'dev';
  let all = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--stage') stage = argv[++i] ?? '';
    else if (arg.startsWith('--stage=')) stage = arg.slice('--stage='.length);
    else if (arg === '-c' || arg === '--context') {
      const [key, ...rest] = (argv[++i] ?? '').split('=');
      if (!key || rest.length === 0) throw new Error(`${arg} takes key=value`);
      context[key] = rest.join('=');
    } else if (arg === '--all') all = true;
    else throw new Error(`Unknown argument '${arg}' (usage: npm run nag -- --stage <name> [-c key=value] [--all])`);
  }
  if (!stage) throw new Error('--stage takes a stage name');
  return { stage, context, all };
}

function main(): number {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const cdkContext = loadCdkContext();
  const stages = cdkContext.stages as Record<string, { alarms?: boolean; alarmEmail?: string }> | undefined;
  const context: Record<string, unknown> = { ...cdkContext, ...args.context, stage: args.stage };
  if (stages?.[args.stage]?.alarms && !stages[args.stage].alarmEmail && !args.context.alarmEmail) {
    context.alarmEmail = PLACEHOLDER_EMAIL;
    console.error(`nag: no alarmEmail for stage '${args.stage}'; checking with ${PLACEHOLDER_EMAIL}`);
  }
  // A built console adds the upload's resources (and their findings) even before `npm run build`.
  const webDist = mkdtempSync(path.join(tmpdir(), 'patrol-nag-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
  try {
    const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    addPatrolStage(
      app,
      stageFromContext(app),
      { account: '123456789012', region: process.env.CDK_DEFAULT_REGION ?? 'eu-central-1' },
      { webDistDir: webDist },
    );
    const findings = nagFindings(app).filter((f) => args.all || f.level === 'error');
    const errors = findings.filter((f) => f.level === 'error').length;
    process.stdout.write(`${JSON.stringify({ stage: args.stage, errors, findings }, null, 2)}\n`);
    return errors > 0 ? 1 : 0;
  } catch (error) {
    console.error(`nag: ${(error as Error).message}`);
    return 2;
  } finally {
    rmSync(webDist, { recursive: true, force: true });
  }
}

process.exitCode = main();
