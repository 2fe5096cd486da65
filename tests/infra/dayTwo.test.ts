import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUDGET_ALERT_PERCENTS } from '../../infra/constructs/Budget.js';
import { LIVE_ALIAS } from '../../infra/constructs/Functions.js';
import { CANARY_FUNCTIONS } from '../../infra/constructs/Releases.js';
import { LAMBDAS } from '../../functions/registry.js';
import { synthStage, TEST_BUDGET_USD } from './synthStack.js';
import { type Json, functionId, ofType, resources } from './templateQueries.js';

// Issue 47, day two in production, held to both stages' templates: releases through a `live`
// alias (a canary in prod), the console's upload order, the budget, the WAF's metric and logs, the
// trigger provider's logs, and a stage adopting a restored table.

const flat = (value: Json) => JSON.stringify(value);
const dist = mkdtempSync(path.join(tmpdir(), 'patrol-web-dist-'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
writeFileSync(path.join(dist, 'app-abc123.js'), '');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const stages = {
  dev: synthStage('dev', 'eu-central-1', {}, dist),
  prod: synthStage('prod', 'eu-central-1', {}, dist),
};
const both = Object.entries(stages);

/** The logical id of a function's `live` alias. */
const aliasOf = (t: Json, name: string) => {
  const fnId = functionId(t, name);
  const found = ofType(t, 'AWS::Lambda::Alias').filter(([, a]) => flat(a.Properties?.FunctionName).includes(fnId));
  expect(found, name).toHaveLength(1);
  return found[0][0];
};

describe.each(both)('%s: releases through the live alias', (_name, { mainTemplate: t }) => {
  it('publishes every deployed function as a version behind an alias named live', () => {
    const deployed = ofType(t, 'AWS::Lambda::Function').filter(([, f]) =>
      /^Patrol \w+: \w+ \(/.test(String(f.Properties?.Description ?? '')),
    );
    for (const [fnId, fn] of deployed) {
      const alias = ofType(t, 'AWS::Lambda::Alias').find(([, a]) => flat(a.Properties?.FunctionName).includes(fnId));
      expect(alias, String(fn.Properties?.Description)).toBeDefined();
      expect(alias?.[1].Properties?.Name).toBe(LIVE_ALIAS);
      expect(alias?.[1].Properties?.FunctionVersion).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Version'] });
    }
  });

  it('routes the API to the api alias', () => {
    const alias = aliasOf(t, 'api');
    for (const [, integration] of ofType(t, 'AWS::ApiGatewayV2::Integration')) {
      expect(integration.Properties?.IntegrationUri).toEqual({ Ref: alias });
    }
  });

  it('triggers every queue and stream consumer through its alias', () => {
    for (const def of LAMBDAS.filter((d) => d.trigger.type === 'sqs' || d.trigger.type === 'stream')) {
      const alias = aliasOf(t, def.name);
      const mappings = ofType(t, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
        flat(m.Properties?.FunctionName).includes(alias),
      );
      expect(mappings, def.name).toHaveLength(1);
    }
    for (const [, m] of ofType(t, 'AWS::Lambda::EventSourceMapping')) {
      expect(flat(m.Properties?.FunctionName)).toMatch(/live/i);
    }
  });

  it('fires every rule and every auto-check schedule at the alias', () => {
    for (const [, rule] of ofType(t, 'AWS::Events::Rule')) {
      for (const target of rule.Properties?.Targets ?? []) {
        const [aliasId] = ofType(t, 'AWS::Lambda::Alias').find(([id]) => flat(target.Arn).includes(id)) ?? [];
        expect(aliasId, flat(target.Arn)).toBeDefined();
      }
    }
    const alias = aliasOf(t, 'autoCheck');
    const api = resources(t)[functionId(t, 'api')].Properties?.Environment.Variables;
    expect(api.AUTO_CHECK_TARGET_ARN).toEqual({ Ref: alias });
    const invokeRole = ofType(t, 'AWS::IAM::Policy').find(([id]) => id.startsWith('RuleSchedulesInvokeRole'));
    expect(flat(invokeRole?.[1].Properties?.PolicyDocument)).toContain(alias);
  });
});

describe('prod: a canary release of the API and the checker', () => {
  const t = stages.prod.mainTemplate;
  it('shifts each by CodeDeploy Canary10Percent5Minutes, rolling back on its function-errors alarm', () => {
    const groups = ofType(t, 'AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(CANARY_FUNCTIONS.length);
    for (const name of CANARY_FUNCTIONS) {
      const alias = resources(t)[aliasOf(t, name)];
      const groupId = alias.UpdatePolicy?.CodeDeployLambdaAliasUpdate?.DeploymentGroupName?.Ref;
      const group = resources(t)[groupId];
      expect(group, name).toBeDefined();
      expect(group.Properties?.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
      expect(group.Properties?.AutoRollbackConfiguration).toMatchObject({
        Enabled: true,
        Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
      });
      const [{ Name }] = group.Properties?.AlarmConfiguration.Alarms ?? [];
      const [[, alarm]] = ofType(t, 'AWS::CloudWatch::Alarm').filter(([id]) => flat(Name).includes(id));
      expect(alarm.Properties?.AlarmName).toBe(`patrol-prod-function-errors-${name}`);
      expect(flat(alarm.Properties?.Dimensions)).toContain(functionId(t, name));
    }
  });
});

describe('a canary stage without alarms', () => {
  it('rolls back on an unsent alarm of its own on each canaried function', () => {
    const { mainTemplate: t } = synthStage('dev', 'eu-central-1', { canary: true });
    const groups = ofType(t, 'AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(CANARY_FUNCTIONS.length);
    const alarms = ofType(t, 'AWS::CloudWatch::Alarm');
    expect(alarms.map(([, a]) => a.Properties?.AlarmName).sort()).toEqual(
      CANARY_FUNCTIONS.map((name) => `patrol-dev-release-errors-${name}`).sort(),
    );
    for (const [, alarm] of alarms) expect(alarm.Properties?.AlarmActions).toBeUndefined();
    for (const [, group] of groups) {
      const [{ Name }] = group.Properties?.AlarmConfiguration.Alarms ?? [];
      expect(alarms.some(([id]) => flat(Name).includes(id))).toBe(true);
    }
  });
});

describe('dev: releases at once', () => {
  it('has no CodeDeploy group: every alias moves to the new version with the deploy', () => {
    const t = stages.dev.mainTemplate;
    expect(ofType(t, 'AWS::CodeDeploy::DeploymentGroup')).toHaveLength(0);
    for (const [, alias] of ofType(t, 'AWS::Lambda::Alias')) expect(alias.UpdatePolicy).toBeUndefined();
  });
});

describe.each(both)('%s: the console upload', (_name, { mainTemplate: t }) => {
  it('uploads the hashed assets first and index.html after them, invalidating index.html only', () => {
    const deployments = ofType(t, 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const [[assetsId, assets]] = deployments.filter(([id]) => id.startsWith('WebAssets'));
    const [[, index]] = deployments.filter(([id]) => id.startsWith('WebIndex'));
    expect([index.DependsOn].flat()).toContain(assetsId);
    expect(assets.Properties?.DistributionId).toBeUndefined();
    expect(index.Properties?.DistributionPaths).toEqual(['/index.html']);
    expect(assets.Properties?.Prune).toBe(false);
  });
});

describe('the monthly budget', () => {
  it('prod: the stage tag, monthlyBudgetUsd, alerts at 80 and 100 % to the alarm topic, which Budgets may publish to', () => {
    const t = stages.prod.mainTemplate;
    const [[, budget]] = ofType(t, 'AWS::Budgets::Budget');
    expect(budget.Properties?.Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: TEST_BUDGET_USD, Unit: 'USD' },
      CostFilters: { TagKeyValue: ['user:stage$prod'] },
    });
    const [[topicId]] = ofType(t, 'AWS::SNS::Topic');
    const alerts = budget.Properties?.NotificationsWithSubscribers;
    expect(alerts.map((a: Json) => a.Notification.Threshold)).toEqual([...BUDGET_ALERT_PERCENTS]);
    for (const a of alerts) {
      expect(a.Notification).toMatchObject({ NotificationType: 'ACTUAL', ThresholdType: 'PERCENTAGE' });
      expect(a.Subscribers).toEqual([{ SubscriptionType: 'SNS', Address: { Ref: topicId } }]);
    }
    const policy = ofType(t, 'AWS::SNS::TopicPolicy').find(([, p]) => flat(p.Properties?.Topics).includes(topicId));
    expect(flat(policy?.[1].Properties?.PolicyDocument)).toContain('budgets.amazonaws.com');
  });

  it('dev: none (no alarms, no budget)', () => {
    expect(ofType(stages.dev.mainTemplate, 'AWS::Budgets::Budget')).toHaveLength(0);
  });
});

describe.each(both)('%s: WAF metrics and logs', (name, { edgeTemplate, mainTemplate }) => {
  const [[, acl]] = ofType(edgeTemplate, 'AWS::WAFv2::WebACL');
  const metricName = acl.Properties?.VisibilityConfig.MetricName;

  it("reads WAF's metrics under the ACL's own metric name, in the alarm and on the dashboard", () => {
    expect(metricName).toBe(`patrol-${name}-acl`);
    const alarms = ofType(edgeTemplate, 'AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(name === 'prod' ? 1 : 0);
    for (const [, alarm] of alarms) {
      expect(flat(alarm.Properties)).toContain(flat({ Name: 'WebACL', Value: metricName }));
    }
    const [[, dashboard]] = ofType(mainTemplate, 'AWS::CloudWatch::Dashboard');
    expect(flat(dashboard.Properties?.DashboardBody)).toContain(`\\"WebACL\\",\\"${metricName}\\"`);
  });

  it('logs what the WAF saw to a log group of its own with the stage retention', () => {
    const [[groupId, group]] = ofType(edgeTemplate, 'AWS::Logs::LogGroup');
    expect(group.Properties?.LogGroupName).toBe(`aws-waf-logs-patrol-${name}`);
    expect(group.Properties?.RetentionInDays).toBe(name === 'prod' ? 90 : 14);
    const [[, logging]] = ofType(edgeTemplate, 'AWS::WAFv2::LoggingConfiguration');
    expect(flat(logging.Properties?.LogDestinationConfigs)).toContain(':log-group:');
    expect(flat(logging.Properties?.LogDestinationConfigs)).toContain(flat({ Ref: groupId }));
    expect(flat(logging.Properties?.LogDestinationConfigs)).not.toContain(':*');
    expect([logging.DependsOn].flat()).toContain(groupId);
  });
});

describe.each(both)("%s: the first-user trigger's provider", (name, { mainTemplate: t }) => {
  it('logs to a group with the stage retention', () => {
    const [[, provider]] = ofType(t, 'AWS::Lambda::Function').filter(([id]) =>
      id.startsWith('AWSCDKTriggerCustomResourceProvider'),
    );
    const groupId = provider.Properties?.LoggingConfig.LogGroup.Ref;
    expect(resources(t)[groupId].Properties?.RetentionInDays).toBe(name === 'prod' ? 90 : 14);
  });
});

describe('a stage that adopts a restored table', () => {
  const tableName = 'patrol-prod-restored-20261207';
  const streamArn = `arn:aws:dynamodb:eu-central-1:123456789012:table/${tableName}/stream/2026-12-07T10:00:00.000`;
  const { mainTemplate: t } = synthStage('prod', 'eu-central-1', { tableName, tableStreamArn: streamArn });

  it('creates no table, points every function, the stream trigger and the output at it', () => {
    expect(ofType(t, 'AWS::DynamoDB::Table')).toHaveLength(0);
    for (const [, fn] of ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties?.Environment)) {
      const table = fn.Properties?.Environment.Variables.TABLE_NAME;
      if (table !== undefined) expect(table).toBe(tableName);
    }
    const streams = ofType(t, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties?.StartingPosition);
    expect(streams.map(([, m]) => m.Properties?.EventSourceArn)).toEqual([streamArn]);
    expect(t.toJSON().Outputs.TableName.Value).toBe(tableName);
    // Grants reach its indexes too, as with the stack's own table.
    const api = ofType(t, 'AWS::IAM::Policy').filter(([, p]) => flat(p.Properties?.PolicyDocument).includes(tableName));
    expect(flat(api.map(([, p]) => p.Properties?.PolicyDocument))).toContain(`table/${tableName}/index/*`);
  });
});
