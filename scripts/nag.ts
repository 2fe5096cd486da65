// npm run nag -- --stage prod [-c alarmEmail=ops@example.com] [-c monthlyBudgetUsd=200] [--all]
//
// Synthesizes one stage offline (no bundling, no AWS account needed) with the settings cdk.json
// gives it, holds it to the AwsSolutions and Serverless packs of cdk-nag, and prints the findings
// nobody acknowledged (infra/nag/nagSuppressions.ts) as JSON on stdout. Exits 1 when any of them
// is an error, 2 on a usage or synth error. `--all` prints warnings as well as errors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { type NagFinding, nagFindings } from '../infra/nag/nagFindings.js';
import { addPatrolStage } from '../infra/patrolStage.js';
import { stageFromContext } from '../infra/stageFromContext.js';
import { loadCdkContext } from '../infra/cdkContext.js';

/** An address for the template only: the findings do not depend on who receives the alarms. */
const PLACEHOLDER_EMAIL = 'alarms@example.invalid';
/** A budget for the template only: the findings do not depend on its amount. */
const PLACEHOLDER_BUDGET_USD = '100';

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

/** What the script prints and its exit code: 1 when any finding is an error. */
export function nagReport(stage: string, all: NagFinding[], withWarnings: boolean): { code: number; json: string } {
  const findings = all.filter((f) => withWarnings || f.level === 'error');
  const errors = all.filter((f) => f.level === 'error').length;
  return { code: errors > 0 ? 1 : 0, json: `${JSON.stringify({ stage, errors, findings }, null, 2)}\n` };
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
  const stages = cdkContext.stages as
    | Record<string, { alarms?: boolean; alarmEmail?: string; monthlyBudgetUsd?: number }>
    | undefined;
  const context: Record<string, unknown> = { ...cdkContext, ...args.context, stage: args.stage };
  if (stages?.[args.stage]?.alarms && !stages[args.stage].alarmEmail && !args.context.alarmEmail) {
    context.alarmEmail = PLACEHOLDER_EMAIL;
    console.error(`nag: no alarmEmail for stage '${args.stage}'; checking with ${PLACEHOLDER_EMAIL}`);
  }
  if (stages?.[args.stage]?.alarms && !stages[args.stage].monthlyBudgetUsd && !args.context.monthlyBudgetUsd) {
    context.monthlyBudgetUsd = PLACEHOLDER_BUDGET_USD;
    console.error(`nag: no monthlyBudgetUsd for stage '${args.stage}'; checking with ${PLACEHOLDER_BUDGET_USD}`);
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
    const { code, json } = nagReport(args.stage, nagFindings(app), args.all);
    process.stdout.write(json);
    return code;
  } catch (error) {
    console.error(`nag: ${(error as Error).message}`);
    return 2;
  } finally {
    rmSync(webDist, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
