import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Annotations, App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PatrolStack, type PatrolStackProps, REPO_ROOT } from '../../infra/PatrolStack.js';
import { addPatrolStage } from '../../infra/patrolStage.js';
import { ASSEMBLIES_ENV } from './assemblies.js';
import { resolveStageConfig, type StageConfig } from '../../infra/stageConfig.js';

/** cdk.json's context: the same stage table and feature flags a real `cdk synth` sees. */
export const cdkContext: Record<string, unknown> = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'),
).context;

/**
 * A folder of its own for a test App's assembly, under the one the infra project's globalSetup made
 * and removes (assemblies.ts); in the system's temp directory when run without it.
 */
export const testOutdir = (): string =>
  mkdtempSync(path.join(process.env[ASSEMBLIES_ENV] ?? tmpdir(), 'patrol-cdk-app-'));

/** What a deployer passes with -c alarmEmail=… for a stage that raises alarms. */
export const TEST_ALARM_EMAIL = 'ops@example.com';
/** And with -c monthlyBudgetUsd=… */
export const TEST_BUDGET_USD = 200;

/** A stage of cdk.json as a deploy would resolve it, given the alarm address and budget a deployer must pass. */
export function testStage(name: string): StageConfig {
  const own = (cdkContext.stages as Record<string, { alarms?: boolean }>)[name];
  return resolveStageConfig(
    cdkContext.stages,
    name,
    own?.alarms ? { alarmEmail: TEST_ALARM_EMAIL, monthlyBudgetUsd: TEST_BUDGET_USD } : {},
  );
}

export interface SynthOptions extends Partial<Omit<PatrolStackProps, 'stage'>> {
  stage?: string;
  /** Settings laid over the stage's cdk.json entry. */
  stageOverrides?: Partial<StageConfig>;
  /** Keep the "console not built" warning, which most tests provoke on purpose. */
  keepWarnings?: boolean;
}

/**
 * One stage synthesized offline: bundling skipped (no esbuild, no docker) and, unless a test says
 * otherwise, no built console, so the result does not depend on what else is on disk.
 */
export function synthStack(options: SynthOptions = {}): { app: App; stack: PatrolStack; template: Template } {
  const { stage = 'dev', keepWarnings = false, stageOverrides = {}, ...props } = options;
  const app = new App({ outdir: testOutdir(), context: { ...cdkContext, stage, 'aws:cdk:bundling-stacks': [] } });
  const stack = new PatrolStack(app, `Patrol-${stage}`, {
    stage: { ...testStage(stage), ...stageOverrides },
    webDistDir: path.join(REPO_ROOT, 'tests', 'infra', 'no-web-dist'),
    ...props,
  });
  // The warning is for people deploying; tests leave the console unbuilt on purpose.
  if (!keepWarnings) Annotations.of(stack).acknowledgeWarning('patrol:web-not-built');
  return { app, stack, template: Template.fromStack(stack) };
}

/** A whole stage as `cdk deploy --all` sees it: the us-east-1 edge stack and the main stack, in a concrete region. */
export function synthStage(
  stage = 'dev',
  region = 'eu-central-1',
  stageOverrides: Partial<StageConfig> = {},
  webDistDir = path.join(REPO_ROOT, 'tests', 'infra', 'no-web-dist'),
) {
  const app = new App({ outdir: testOutdir(), context: { ...cdkContext, stage, 'aws:cdk:bundling-stacks': [] } });
  const { edge, main } = addPatrolStage(
    app,
    { ...testStage(stage), ...stageOverrides },
    { account: '123456789012', region },
    { webDistDir },
  );
  Annotations.of(main).acknowledgeWarning('patrol:web-not-built');
  return { app, edge, main, edgeTemplate: Template.fromStack(edge), mainTemplate: Template.fromStack(main) };
}
