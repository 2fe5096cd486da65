import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Annotations, App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PatrolStack, type PatrolStackProps, REPO_ROOT } from '../../infra/PatrolStack.js';
import { resolveStageConfig } from '../../infra/stageConfig.js';

/** cdk.json's context: the same stage table and feature flags a real `cdk synth` sees. */
export const cdkContext: Record<string, unknown> = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'),
).context;

export interface SynthOptions extends Partial<Omit<PatrolStackProps, 'stage'>> {
  stage?: string;
  /** Keep the "console not built" warning, which most tests provoke on purpose. */
  keepWarnings?: boolean;
}

/**
 * One stage synthesized offline: bundling skipped (no esbuild, no docker) and, unless a test says
 * otherwise, no built console, so the result does not depend on what else is on disk.
 */
export function synthStack(options: SynthOptions = {}): { app: App; stack: PatrolStack; template: Template } {
  const { stage = 'dev', keepWarnings = false, ...props } = options;
  const app = new App({ context: { ...cdkContext, stage, 'aws:cdk:bundling-stacks': [] } });
  const stack = new PatrolStack(app, `Patrol-${stage}`, {
    stage: resolveStageConfig(cdkContext.stages, stage),
    webDistDir: path.join(REPO_ROOT, 'tests', 'infra', 'no-web-dist'),
    ...props,
  });
  // The warning is for people deploying; tests leave the console unbuilt on purpose.
  if (!keepWarnings) Annotations.of(stack).acknowledgeWarning('patrol:web-not-built');
  return { app, stack, template: Template.fromStack(stack) };
}
