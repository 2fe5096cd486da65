// Reports in the cloud (issue 46 item 1): the minute tick that sends and prints them, with a Chromium,
// and their files' own expiry in the video bucket, apart from the checks' evidence.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAMBDAS } from '../../functions/registry.js';
import { REPORT_EXPIRY_DAYS } from '../../infra/constructs/Storage.js';
import { synthStack, testStage } from './synthStack.js';
import { ofType } from './templateQueries.js';

let template: Template;
beforeAll(() => {
  ({ template } = synthStack());
});

describe('reports', () => {
  it('runs the reports tick every minute from an EventBridge rule', () => {
    const def = LAMBDAS.find((l) => l.name === 'reportSchedule');
    expect(def).toMatchObject({ trigger: { type: 'schedule', everySeconds: 60 }, chromium: true });
    const rules = ofType(template, 'AWS::Events::Rule').filter(([id]) => id.includes('reportSchedule'));
    expect(rules).toHaveLength(1);
    expect(rules[0][1].Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
  });

  it('expires reports under their own prefix, and check evidence under its own', () => {
    const [[, videos]] = ofType(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('StorageVideos'));
    const rules = videos.Properties?.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({ Id: 'expire-reports', Prefix: 'reports/', ExpirationInDays: REPORT_EXPIRY_DAYS }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({
        Id: 'expire-videos',
        Prefix: 'checks/',
        ExpirationInDays: testStage('dev').videoExpiryDays,
      }),
    );
  });
});
