import { App } from 'aws-cdk-lib';
import { PatrolStack } from './PatrolStack.js';
import { DEFAULT_STAGE, resolveStageConfig } from './stageConfig.js';

// `npx cdk deploy -c stage=prod`: one stack per stage, settings from cdk.json context.stages.
const app = new App();
const stageName = String(app.node.tryGetContext('stage') ?? DEFAULT_STAGE);
const stage = resolveStageConfig(app.node.tryGetContext('stages'), stageName);

new PatrolStack(app, `Patrol-${stage.name}`, {
  stage,
  description: `Patrol back-office console, stage ${stage.name}`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

app.synth();
