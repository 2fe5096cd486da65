import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { PATROL_METRICS } from '../../functions/lib/metrics.js';
import { deploysInCloud, LAMBDAS, QUEUES } from '../../functions/registry.js';
import { OLDEST_MESSAGE_ALARM_S, PRODUCT_ALARMS } from '../../infra/constructs/Alarms.js';
import { FAILURE_QUEUES } from '../../infra/constructs/Queues.js';
import { nagFindings } from '../../infra/nag/nagFindings.js';
import { NAG_SUPPRESSIONS, suppressionMatches } from '../../infra/nag/nagSuppressions.js';
import { synthStage, TEST_ALARM_EMAIL, testStage } from './synthStack.js';
import { type Json, functionId, ofType, resources } from './templateQueries.js';

// Issue 23: what a first `cdk deploy` needs, checked against the synthesized template of both
// stages, each synthesized once (edge and main stack, in a concrete region, as `cdk deploy --all`).

const DOMAIN = {
  name: 'patrol.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
  apiCertificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/66666666-7777-8888-9999-000000000000',
};
// A built console, so the upload's resources (and what cdk-nag says of them) are in the template.
const webDist = mkdtempSync(path.join(tmpdir(), 'patrol-web-dist-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
afterAll(() => rmSync(webDist, { recursive: true, force: true }));
const stages = {
  dev: synthStage('dev', 'eu-central-1', {}, webDist),
  prod: synthStage('prod', 'eu-central-1', {}, webDist),
  'prod with a domain': synthStage('prod', 'eu-central-1', { domain: DOMAIN }, webDist),
};
const both = [
  ['dev', stages.dev],
  ['prod', stages.prod],
] as const;
const flat = (v: Json) => JSON.stringify(v);
const nodeMajor = Number(process.versions.node.split('.')[0]);

describe.each(both)('%s: the first super user', (_name, { mainTemplate: t }) => {
  it('is created by a trigger that runs the firstUser function after the table exists', () => {
    const fnId = functionId(t, 'firstUser');
    const [[, trigger]] = ofType(t, 'Custom::Trigger');
    // The trigger invokes the function's current version, so a code change runs it again.
    expect(flat(trigger.Properties?.HandlerArn)).toContain(fnId.replace(/[0-9A-F]{8}$/, 'CurrentVersion'));
    const [[tableId]] = ofType(t, 'AWS::DynamoDB::Table');
    expect([trigger.DependsOn].flat()).toContain(tableId);
  });

  it('gets its password from a generated secret the AdminPasswordSecret output names', () => {
    const [[secretId, secret]] = ofType(t, 'AWS::SecretsManager::Secret').filter(([id]) =>
      id.startsWith('SecretsAdminPassword'),
    );
    expect(secret.Properties?.GenerateSecretString).toMatchObject({ PasswordLength: 24, ExcludePunctuation: true });
    expect(t.toJSON().Outputs.AdminPasswordSecret.Value).toEqual({ Ref: secretId });
    const vars = resources(t)[functionId(t, 'firstUser')].Properties?.Environment.Variables;
    expect(vars.ADMIN_PASSWORD_SECRET_ARN).toEqual({ Ref: secretId });
  });
});

describe('alarms that reach people', () => {
  const t = stages.prod.mainTemplate;
  const edge = stages.prod.edgeTemplate;
  const alarms = ofType(t, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties as Json);
  const named = (name: string) => alarms.find((a) => a.AlarmName === `patrol-prod-${name}`);

  it('sends them by e-mail in prod, through topics that refuse plain HTTP, in both regions', () => {
    for (const template of [t, edge]) {
      template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: TEST_ALARM_EMAIL });
      const [[topicId]] = ofType(template, 'AWS::SNS::Topic');
      const [[, policy]] = ofType(template, 'AWS::SNS::TopicPolicy').filter(([, p]) =>
        flat(p.Properties?.Topics).includes(topicId),
      );
      expect(policy.Properties?.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
    for (const alarm of alarms) {
      expect(alarm.AlarmActions, alarm.AlarmName).toHaveLength(1);
      expect(alarm.AlarmDescription, alarm.AlarmName).toMatch(/Runbook: docs\/deploy.md, "Alarms", [a-z0-9-]+\.$/);
    }
  });

  it('watches the oldest message of every work queue and every dead-letter queue', () => {
    for (const q of QUEUES) {
      expect(named(`queue-age-${q.name}`), q.name).toMatchObject({
        MetricName: 'ApproximateAgeOfOldestMessage',
        Threshold: OLDEST_MESSAGE_ALARM_S[q.name],
      });
      expect(named(`dead-letters-${q.name}-dlq`)?.MetricName, q.name).toBe('ApproximateNumberOfMessagesVisible');
    }
    for (const name of Object.keys(FAILURE_QUEUES)) expect(named(`dead-letters-${name}`), name).toBeDefined();
    // Every queue that is no work queue (a dead-letter queue) has its alarm.
    const dlqIds = ofType(t, 'AWS::SQS::Queue')
      .filter(([id, q]) => !q.Properties?.RedrivePolicy && !id.startsWith('AlarmsUndelivered'))
      .map(([id]) => id);
    for (const id of dlqIds)
      expect(
        alarms.some((a) => flat(a.Dimensions).includes(id)),
        id,
      ).toBe(true);
  });

  it('watches errors and throttles of every function, the stream, DynamoDB and API 5xx', () => {
    for (const def of LAMBDAS.filter(deploysInCloud)) {
      expect(named(`function-errors-${def.name}`)?.MetricName, def.name).toBe('Errors');
      expect(named(`function-throttles-${def.name}`)?.MetricName, def.name).toBe('Throttles');
    }
    expect(named('stream-iterator-age-expiryStream')).toMatchObject({ MetricName: 'IteratorAge' });
    expect(flat(named('dynamodb-throttles')?.Metrics)).toMatch(/ReadThrottleEvents.*WriteThrottleEvents/);
    expect(named('api-5xx')).toMatchObject({ MetricName: '5xx', Namespace: 'AWS/ApiGateway' });
  });

  it("watches the product's own health in the Patrol namespace, per stage", () => {
    for (const [metric, rule] of Object.entries(PRODUCT_ALARMS)) {
      const alarm = named(rule.kind);
      expect(alarm, metric).toMatchObject({
        Namespace: 'Patrol',
        MetricName: metric,
        Dimensions: [{ Name: 'stage', Value: 'prod' }],
        Threshold: rule.threshold,
      });
      if (rule.statistic === 'p95') expect(alarm.ExtendedStatistic).toBe('p95');
    }
    expect(Object.keys(PRODUCT_ALARMS).sort()).toEqual(Object.keys(PATROL_METRICS).sort());
  });

  it('watches WAF blocked-request spikes from us-east-1, where the metric is', () => {
    const [[, waf]] = ofType(edge, 'AWS::CloudWatch::Alarm');
    expect(waf.Properties).toMatchObject({
      AlarmName: 'patrol-prod-waf-blocked',
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      // The ACL's metric name, which WAF publishes under (its name, patrol-prod, matched nothing).
      Dimensions: expect.arrayContaining([{ Name: 'WebACL', Value: 'patrol-prod-acl' }]),
    });
    expect(stages.prod.edge.region).toBe('us-east-1');
  });

  it('gives dev no alarms and no subscription, but a dashboard', () => {
    stages.dev.mainTemplate.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    stages.dev.mainTemplate.resourceCountIs('AWS::SNS::Subscription', 0);
    stages.dev.mainTemplate.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });
});

describe.each(both)('%s: one dashboard', (name, { mainTemplate: t }) => {
  it('named for the stage, graphing the product metrics and what the alarms watch', () => {
    const [[, dashboard]] = ofType(t, 'AWS::CloudWatch::Dashboard');
    expect(dashboard.Properties?.DashboardName).toBe(`patrol-${name}`);
    const body = flat(dashboard.Properties?.DashboardBody);
    for (const metric of [
      ...Object.keys(PATROL_METRICS),
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesVisible',
      'Errors',
      'Throttles',
      'IteratorAge',
      'ReadThrottleEvents',
      '5xx',
      'BlockedRequests',
    ]) {
      expect(body, metric).toContain(metric);
    }
    expect(body).toContain('us-east-1');
  });
});

describe('a deploy that can be retried', () => {
  it('retains data in prod except when its first create fails: no plain Retain anywhere', () => {
    const t = stages.prod.mainTemplate;
    const retained = Object.entries(resources(t)).filter(
      ([, r]) => r.DeletionPolicy !== undefined && r.DeletionPolicy !== 'Delete',
    );
    expect(retained.length).toBeGreaterThan(0);
    for (const [id, r] of retained) {
      expect(r.DeletionPolicy, id).toBe('RetainExceptOnCreate');
      expect(r.UpdateReplacePolicy, id).toBe('Retain');
    }
    for (const type of ['AWS::KMS::Key', 'AWS::SecretsManager::Secret', 'AWS::S3::Bucket', 'AWS::DynamoDB::Table']) {
      for (const [id, r] of ofType(t, type)) expect(r.DeletionPolicy, id).toBe('RetainExceptOnCreate');
    }
    t.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    for (const template of [t, stages.prod.edgeTemplate]) expect(flat(template.toJSON())).not.toContain('"Retain"},');
  });

  it('names only what needs a name: no secret, queue, table, log bucket or function carries one', () => {
    const t = stages.prod.mainTemplate;
    for (const [id, r] of ofType(t, 'AWS::SecretsManager::Secret')) expect(r.Properties?.Name, id).toBeUndefined();
    for (const [id, r] of ofType(t, 'AWS::SQS::Queue')) expect(r.Properties?.QueueName, id).toBeUndefined();
    for (const [id, r] of ofType(t, 'AWS::DynamoDB::Table')) expect(r.Properties?.TableName, id).toBeUndefined();
    for (const [id, r] of ofType(t, 'AWS::Lambda::Function')) expect(r.Properties?.FunctionName, id).toBeUndefined();
    const namedBuckets = ofType(t, 'AWS::S3::Bucket').filter(([, r]) => r.Properties?.BucketName);
    expect(namedBuckets.map(([id]) => id)).toEqual([expect.stringMatching(/^StorageVideos/)]);
  });
});

describe('the edge is the only way in', () => {
  it('switches the execute-api address off behind a custom domain, with TLS 1.2 at both ends', () => {
    const { mainTemplate: t } = stages['prod with a domain'];
    t.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    t.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: DOMAIN.name,
      DomainNameConfigurations: [
        Match.objectLike({ CertificateArn: DOMAIN.apiCertificateArn, SecurityPolicy: 'TLS_1_2' }),
      ],
    });
    const [[, distribution]] = ofType(t, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties?.DistributionConfig;
    expect(config.Aliases).toEqual([DOMAIN.name]);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: DOMAIN.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
    });
    // CloudFront reaches the API at its custom domain's regional address, passing the Host it is mapped at.
    const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/api/*');
    const [[domainId]] = ofType(t, 'AWS::ApiGatewayV2::DomainName');
    expect(flat(config.Origins.find((o: Json) => o.Id === api.TargetOriginId).DomainName)).toContain(domainId);
    expect(api.OriginRequestPolicyId).toBe('33f36d7e-f396-46d9-90e0-52428a34d9dc');
    expect(t.toJSON().Outputs.ConsoleUrl.Value).toBe(`https://${DOMAIN.name}`);
  });

  it.each(both)(
    '%s: the API refuses what does not carry the rotated origin secret CloudFront adds',
    (_n, { mainTemplate: t }) => {
      const vars = resources(t)[functionId(t, 'api')].Properties?.Environment.Variables;
      const [[originId]] = ofType(t, 'AWS::SecretsManager::Secret').filter(([id]) =>
        id.startsWith('SecretsOriginSecret'),
      );
      expect(vars.ORIGIN_SECRET_ARN).toEqual({ Ref: originId });
      t.hasResourceProperties('AWS::SecretsManager::RotationSchedule', {
        SecretId: { Ref: originId },
        RotationRules: Match.objectLike({ ScheduleExpression: 'rate(30 days)' }),
      });
      const [[, distribution]] = ofType(t, 'AWS::CloudFront::Distribution');
      const config = distribution.Properties?.DistributionConfig;
      // The inbound bank webhook stays reachable through CloudFront, with the same origin.
      const hook = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/webhook/*');
      expect(hook).toBeDefined();
      const rotation = resources(t)[functionId(t, 'secretRotation')].Properties?.Environment.Variables;
      expect(flat(rotation.DISTRIBUTION_ID)).toContain('WebDistribution');
    },
  );

  it.each(both)('%s: rotates the JWT signing key', (_n, { mainTemplate: t }) => {
    const [[jwtId]] = ofType(t, 'AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('SecretsJwtSecret'));
    t.hasResourceProperties('AWS::SecretsManager::RotationSchedule', { SecretId: { Ref: jwtId } });
  });
});

describe.each(both)('%s: failures land somewhere', (_name, { mainTemplate: t }) => {
  it('gives every rule target and the auto-check schedules a dead-letter queue', () => {
    const rules = ofType(t, 'AWS::Events::Rule');
    expect(rules.length).toBe(LAMBDAS.filter((l) => l.trigger.type === 'schedule').length);
    for (const [id, rule] of rules) {
      for (const target of rule.Properties?.Targets ?? []) {
        expect(flat(target.DeadLetterConfig?.Arn), id).toContain('Queuesscheduledeliveriesdlq');
      }
    }
    const api = resources(t)[functionId(t, 'api')].Properties?.Environment.Variables;
    expect(flat(api.AUTO_CHECK_DLQ_ARN)).toContain('Queuesscheduledeliveriesdlq');
  });

  it('gives the stream mapping an on-failure destination', () => {
    const streams = ofType(t, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      flat(m.Properties?.EventSourceArn).includes('StreamArn'),
    );
    expect(streams).toHaveLength(1);
    expect(flat(streams[0][1].Properties?.DestinationConfig?.OnFailure?.Destination)).toContain(
      'Queuesstreambatchesdlq',
    );
  });
});

describe.each(Object.entries(stages))('%s', (name, { app, main }) => {
  it(`runs every function on Node ${nodeMajor}, the Node the tests run on`, () => {
    const t = stages[name as keyof typeof stages].mainTemplate;
    for (const def of LAMBDAS.filter(deploysInCloud)) {
      expect(resources(t)[functionId(t, def.name)].Properties?.Runtime, def.name).toBe(`nodejs${nodeMajor}.x`);
    }
  });

  it('has no unacknowledged cdk-nag error (AwsSolutions and Serverless packs)', () => {
    const errors = nagFindings(app).filter((f) => f.level === 'error');
    expect(errors.map((f) => `${f.rule} at ${f.path}`)).toEqual([]);
    expect(main.node.path).toBe(`Patrol-${testStage(name.split(' ')[0]).name}`);
  });
});

describe('the suppressions file', () => {
  it('gives every entry a reason and matches a construct of some stage with each (no stale entries)', () => {
    const all = Object.values(stages).flatMap((s) => [s.main, s.edge]);
    for (const s of NAG_SUPPRESSIONS) {
      expect(s.reason.length, s.path).toBeGreaterThan(30);
      expect(suppressionMatches(all, s), s.path).toBe(true);
    }
  });
});
