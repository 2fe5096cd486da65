import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { resolveStageConfig } from '../../infra/stageConfig.js';
import { stageFromContext } from '../../infra/stageFromContext.js';
import { cdkContext, synthStack, testOutdir } from './synthStack.js';

describe('Stages', () => {
  it('refuses a stage cdk.json does not define, naming the ones it does', () => {
    expect(() => resolveStageConfig(cdkContext.stages, 'staging')).toThrow(
      "Unknown stage 'staging': add it under context.stages in cdk.json (known: dev, prod)",
    );
  });

  it('refuses a log retention CloudWatch does not offer', () => {
    expect(() => resolveStageConfig({ qa: { logRetentionDays: 10 } }, 'qa')).toThrow(/logRetentionDays 10/);
  });

  it("refuses a video bucket that would expire videos before the console's default retention", () => {
    expect(() => resolveStageConfig({ qa: { videoExpiryDays: 90 } }, 'qa')).toThrow(
      /videoExpiryDays must be above the console's default video retention \(180 days\)/,
    );
    expect(resolveStageConfig({ qa: { videoExpiryDays: 181 } }, 'qa').videoExpiryDays).toBe(181);
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

  it('raises no alarms in dev', () => {
    synthStack({ stage: 'dev' }).template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });

  it('refuses a stage that raises alarms without an address to send them to, saying how to give one', () => {
    expect(() => resolveStageConfig(cdkContext.stages, 'prod')).toThrow(
      "Stage 'prod' raises alarms but names nobody to send them to: set alarmEmail under context.stages.prod in cdk.json, or pass -c alarmEmail=ops@example.com",
    );
    expect(() => resolveStageConfig(cdkContext.stages, 'prod', { alarmEmail: 'not-an-address' })).toThrow(
      /alarmEmail 'not-an-address' is not an e-mail address/,
    );
  });

  it('takes -c alarmEmail over the stage entry of cdk.json', () => {
    const app = new App({
      outdir: testOutdir(),
      context: { ...cdkContext, stage: 'prod', alarmEmail: 'oncall@example.org', monthlyBudgetUsd: '250' },
    });
    expect(stageFromContext(app)).toMatchObject({
      name: 'prod',
      alarms: true,
      alarmEmail: 'oncall@example.org',
      monthlyBudgetUsd: 250,
    });
    const withOwn = {
      ...(cdkContext.stages as object),
      qa: { alarms: true, alarmEmail: 'qa@example.org', monthlyBudgetUsd: 50 },
    };
    const qa = new App({
      outdir: testOutdir(),
      context: { ...cdkContext, stages: withOwn, stage: 'qa', alarmEmail: 'me@example.org' },
    });
    expect(stageFromContext(qa)).toMatchObject({ alarmEmail: 'me@example.org', monthlyBudgetUsd: 50 });
  });

  it('refuses a stage that raises alarms without a monthly budget, and a budget that is no amount', () => {
    expect(() => resolveStageConfig(cdkContext.stages, 'prod', { alarmEmail: 'ops@example.com' })).toThrow(
      "Stage 'prod' raises alarms but sets no monthly budget: set monthlyBudgetUsd under context.stages.prod in cdk.json, or pass -c monthlyBudgetUsd=200",
    );
    const app = new App({
      outdir: testOutdir(),
      context: { ...cdkContext, stage: 'prod', alarmEmail: 'ops@example.com', monthlyBudgetUsd: 'lots' },
    });
    expect(() => stageFromContext(app)).toThrow(/monthlyBudgetUsd must be a positive number/);
    expect(() => resolveStageConfig({ qa: { monthlyBudgetUsd: 10 } }, 'qa')).toThrow(/needs alarms on/);
  });

  it('refuses a misspelt setting, naming the closest known one, instead of falling back to its default', () => {
    expect(() => resolveStageConfig({ qa: { removalpolicy: 'retain' } }, 'qa')).toThrow(
      "Stage 'qa': unknown setting 'removalpolicy' (did you mean 'removalPolicy'?)",
    );
    expect(() => resolveStageConfig({ qa: { logRetention: 30 } }, 'qa')).toThrow(/did you mean 'logRetentionDays'\?/);
    expect(() => resolveStageConfig({ qa: { apiThrottle: { rate: 5 } } }, 'qa')).toThrow(
      /unknown setting 'rate' in apiThrottle/,
    );
    expect(() => resolveStageConfig({ qa: { alarms: 'yes' } }, 'qa')).toThrow(/Stage 'qa': alarms: /);
  });

  it('adopts a table only with its stream, and only a stream of that table', () => {
    expect(() => resolveStageConfig({ qa: { tableName: 'patrol-qa-restored' } }, 'qa')).toThrow(
      /tableName and tableStreamArn go together/,
    );
    const stream = 'arn:aws:dynamodb:eu-central-1:123456789012:table/patrol-qa-restored/stream/2026-12-07T10:00:00.000';
    expect(resolveStageConfig({ qa: { tableName: 'patrol-qa-restored', tableStreamArn: stream } }, 'qa')).toMatchObject(
      { tableName: 'patrol-qa-restored', tableStreamArn: stream },
    );
    expect(() => resolveStageConfig({ qa: { tableName: 'other', tableStreamArn: stream } }, 'qa')).toThrow(
      /not a stream of the table 'other'/,
    );
  });

  it('refuses a custom domain without a way to a certificate, and a CloudFront certificate outside us-east-1', () => {
    expect(() => resolveStageConfig({ qa: { domain: { name: 'patrol.example.com' } } }, 'qa')).toThrow(
      /domain needs a hostedZone, or certificateArn/,
    );
    const elsewhere = 'arn:aws:acm:eu-central-1:123456789012:certificate/abc';
    expect(() =>
      resolveStageConfig(
        { qa: { domain: { name: 'patrol.example.com', certificateArn: elsewhere, apiCertificateArn: elsewhere } } },
        'qa',
      ),
    ).toThrow(/certificateArn: an ACM certificate in us-east-1/);
    expect(() =>
      resolveStageConfig(
        { qa: { domain: { name: 'patrol.example.com', hostedZone: { id: 'Z1', name: 'other.org' } } } },
        'qa',
      ),
    ).toThrow(/not inside the zone 'other.org'/);
  });
});
