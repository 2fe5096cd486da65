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
      context: { ...cdkContext, stage: 'prod', alarmEmail: 'oncall@example.org' },
    });
    expect(stageFromContext(app)).toMatchObject({ name: 'prod', alarms: true, alarmEmail: 'oncall@example.org' });
    const withOwn = { ...(cdkContext.stages as object), qa: { alarms: true, alarmEmail: 'qa@example.org' } };
    const qa = new App({
      outdir: testOutdir(),
      context: { ...cdkContext, stages: withOwn, stage: 'qa', alarmEmail: 'me@example.org' },
    });
    expect(stageFromContext(qa).alarmEmail).toBe('me@example.org');
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
