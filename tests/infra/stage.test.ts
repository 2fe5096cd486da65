import { describe, expect, it } from 'vitest';
import { deploysInCloud, LAMBDAS } from '../../functions/registry.js';
import { resolveStageConfig } from '../../infra/stageConfig.js';
import { cdkContext, synthStack } from './synthStack.js';
import { ofType } from './templateQueries.js';

describe('Stages', () => {
  it('refuses a stage cdk.json does not define, naming the ones it does', () => {
    expect(() => resolveStageConfig(cdkContext.stages, 'staging')).toThrow(
      "Unknown stage 'staging': add it under context.stages in cdk.json (known: dev, prod)",
    );
  });

  it('refuses a log retention CloudWatch does not offer', () => {
    expect(() => resolveStageConfig({ qa: { logRetentionDays: 10 } }, 'qa')).toThrow(/logRetentionDays 10/);
  });

  it('fills what a stage leaves out with the development defaults', () => {
    expect(resolveStageConfig({ qa: { apiThrottle: { rateLimit: 5 } } }, 'qa')).toMatchObject({
      name: 'qa',
      removalPolicy: 'destroy',
      apiThrottle: { rateLimit: 5, burstLimit: 100 },
      alarms: false,
    });
  });

  // Template.fromStack refuses resources that depend on each other in a circle, as CloudFormation
  // would; the console URL reaching the functions that the console fronts is where one could appear.
  it.each(['dev', 'prod'])('synthesizes %s without a dependency cycle CloudFormation would reject', (stage) => {
    expect(() => synthStack({ stage })).not.toThrow();
  });

  it('retains the key, the secret and both buckets in prod and empties nothing on delete', () => {
    const { template } = synthStack({ stage: 'prod' });
    for (const type of ['AWS::KMS::Key', 'AWS::SecretsManager::Secret', 'AWS::S3::Bucket', 'AWS::DynamoDB::Table']) {
      for (const [id, resource] of ofType(template, type)) expect(resource.DeletionPolicy, id).toBe('Retain');
    }
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('alarms in prod on every dead-letter queue, every function error and API 5xx', () => {
    const { template } = synthStack({ stage: 'prod' });
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const dlqs = ofType(template, 'AWS::SQS::Queue').filter(([, q]) => !q.Properties?.RedrivePolicy);
    for (const [dlqId] of dlqs) {
      expect(alarms.some((a) => JSON.stringify(a?.Dimensions).includes(dlqId))).toBe(true);
    }
    const deployed = LAMBDAS.filter(deploysInCloud);
    expect(alarms.filter((a) => a?.MetricName === 'Errors')).toHaveLength(deployed.length);
    expect(alarms.filter((a) => a?.MetricName === '5xx')).toHaveLength(1);
    for (const alarm of alarms) expect(alarm?.AlarmActions).toHaveLength(1);
  });

  it('raises no alarms in dev', () => {
    synthStack({ stage: 'dev' }).template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });
});
