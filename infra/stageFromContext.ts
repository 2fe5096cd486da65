import type { App } from 'aws-cdk-lib';
import { DEFAULT_STAGE, resolveStageConfig, type StageConfig } from './stageConfig.js';

/**
 * The stage a synth is for, from the app's context: `-c stage=prod` picks the cdk.json entry under
 * `stages`, and the keys of StageOverrides given with `-c` (e.g. `-c alarmEmail=ops@example.com`)
 * (and `-c monthlyBudgetUsd=200`) win over that entry, so a deployer need not edit cdk.json for them.
 */
export function stageFromContext(app: App): StageConfig {
  const name = String(app.node.tryGetContext('stage') ?? DEFAULT_STAGE);
  const alarmEmail = app.node.tryGetContext('alarmEmail');
  // `-c monthlyBudgetUsd=200` arrives as text; a value that is no number is refused by the stage's check.
  const budget = app.node.tryGetContext('monthlyBudgetUsd');
  return resolveStageConfig(app.node.tryGetContext('stages'), name, {
    alarmEmail: typeof alarmEmail === 'string' ? alarmEmail : undefined,
    monthlyBudgetUsd: budget === undefined || budget === '' ? undefined : Number(budget),
  });
}
