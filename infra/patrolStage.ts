import type { App, Environment } from 'aws-cdk-lib';
import { PatrolEdgeStack } from './EdgeStack.js';
import { PatrolStack, type PatrolStackProps } from './PatrolStack.js';
import type { StageConfig } from './stageConfig.js';

/**
 * One stage = two stacks: `PatrolEdge-<stage>` in us-east-1 (the WAF web ACL, which CloudFront
 * requires there) and `Patrol-<stage>` in the deploy region (everything else), which attaches that
 * ACL to its distribution. `cdk deploy --all` deploys the edge stack first.
 */
export function addPatrolStage(
  app: App,
  stage: StageConfig,
  env: Environment,
  props: Partial<Omit<PatrolStackProps, 'stage' | 'env'>> = {},
): { edge: PatrolEdgeStack; main: PatrolStack } {
  const edge = new PatrolEdgeStack(app, `PatrolEdge-${stage.name}`, {
    stage,
    env,
    crossRegionReferences: true,
    description: `Patrol back-office console, stage ${stage.name}: WAF (us-east-1)`,
  });
  const main = new PatrolStack(app, `Patrol-${stage.name}`, {
    description: `Patrol back-office console, stage ${stage.name}`,
    ...props,
    stage,
    env,
    crossRegionReferences: true,
    webAclArn: edge.webAclArn,
    webAclMetricName: edge.webAclMetricName,
    cloudFrontCertificateArn: edge.certificateArn ?? stage.domain?.certificateArn,
  });
  main.addStackDependency(edge);
  return { edge, main };
}
