import { App } from 'aws-cdk-lib';
import { addPatrolStage } from './patrolStage.js';
import { DEFAULT_STAGE, resolveStageConfig } from './stageConfig.js';

// `npx cdk deploy --all -c stage=prod`: one stage per deploy, settings from cdk.json context.stages.
// The region must be known at synth (AWS profile or CDK_DEFAULT_REGION): the WAF lives in us-east-1
// and the main stack reads its ARN across regions.
const app = new App();
const stageName = String(app.node.tryGetContext('stage') ?? DEFAULT_STAGE);
const stage = resolveStageConfig(app.node.tryGetContext('stages'), stageName);

addPatrolStage(app, stage, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });

app.synth();
