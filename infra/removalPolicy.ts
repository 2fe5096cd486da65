import { RemovalPolicy } from 'aws-cdk-lib';
import type { StageConfig } from './stageConfig.js';

/**
 * The removal policy of what holds data. In a retaining stage, kept when the stack is deleted or
 * a resource replaced, but deleted when its first create fails and rolls back, so a failed first
 * deploy can simply be run again (plain RETAIN left named resources behind to collide with).
 * Its own module: both stacks use it, and the edge stack importing the main one closed a circle.
 */
export function dataRemovalPolicy(stage: Pick<StageConfig, 'removalPolicy'>): RemovalPolicy {
  return stage.removalPolicy === 'retain' ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}
