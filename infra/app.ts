import { App } from 'aws-cdk-lib';
import { addPatrolStage } from './patrolStage.js';
import { stageFromContext } from './stageFromContext.js';

// `npx cdk deploy --all -c stage=prod -c alarmEmail=ops@example.com`: one stage per deploy, settings
// from cdk.json context.stages. The region must be known at synth (AWS profile or
// CDK_DEFAULT_REGION): the WAF lives in us-east-1 and the main stack reads its ARN across regions.
const app = new App();
addPatrolStage(app, stageFromContext(app), {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION,
});

app.synth();
