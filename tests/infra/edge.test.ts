import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../functions/auth/clientIp.js';
import { EDGE_REGION, RATE_LIMITED_PATHS } from '../../infra/EdgeStack.js';
import { synthStack, synthStage } from './synthStack.js';
import { type Json, functionId, ofType, resources } from './templateQueries.js';

const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** `Fn::Join`/`Ref` trees as one string, to look for references inside them. */
const flat = (value: Json) => JSON.stringify(value);

describe('Edge: the WAF in front of login and captcha', () => {
  const { edge, main, edgeTemplate, mainTemplate } = synthStage('dev', 'eu-central-1');

  it('lives in us-east-1 (CloudFront reads web ACLs only there), whatever the main region', () => {
    expect(edge.region).toBe(EDGE_REGION);
    expect(main.region).toBe('eu-central-1');
    expect(main.dependencies).toContain(edge);
  });

  it('rate-limits each client address on /api/v1/login and /api/v1/captcha, answering 429 in the envelope', () => {
    const [[, acl]] = ofType(edgeTemplate, 'AWS::WAFv2::WebACL');
    expect(acl.Properties?.Scope).toBe('CLOUDFRONT');
    expect(acl.Properties?.DefaultAction).toEqual({ Allow: {} });
    const [rule] = acl.Properties?.Rules ?? [];
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({ Limit: 100, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    const paths = rate.ScopeDownStatement.OrStatement.Statements.map((s: Json) => s.ByteMatchStatement.SearchString);
    expect(paths.sort()).toEqual([...RATE_LIMITED_PATHS].sort());
    expect(rule.Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      ResponseHeaders: [{ Name: 'retry-after', Value: '300' }],
    });
    const body = acl.Properties?.CustomResponseBodies[rule.Action.Block.CustomResponse.CustomResponseBodyKey];
    expect(JSON.parse(body.Content)).toMatchObject({
      code: expect.any(Number),
      msg: expect.stringMatching(/Too many/),
    });
  });

  it("is attached to the main stack's distribution", () => {
    const [[, distribution]] = ofType(mainTemplate, 'AWS::CloudFront::Distribution');
    const webAcl = distribution.Properties?.DistributionConfig.WebACLId;
    expect(webAcl).toBeDefined();
    // Read across regions from the edge stack (an SSM parameter CDK writes there).
    expect(flat(webAcl)).toMatch(/WebAcl/);
  });
});

describe('Web: headers of the console and the origin secret', () => {
  const { template } = synthStack();
  const [[, distribution]] = ofType(template, 'AWS::CloudFront::Distribution');
  const config = distribution.Properties?.DistributionConfig;

  it('serves the console with a strict CSP whose media come from the console and the video bucket', () => {
    const policyRef = config.DefaultCacheBehavior.ResponseHeadersPolicyId;
    const policy = resources(template)[policyRef.Ref].Properties?.ResponseHeadersPolicyConfig;
    const security = policy.SecurityHeadersConfig;
    const csp = flat(security.ContentSecurityPolicy.ContentSecurityPolicy);
    for (const directive of [
      "script-src 'self';",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "default-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const [[, videos]] = ofType(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('StorageVideos'));
    // The bucket's own fixed name, in the same region: not any bucket, not any host.
    expect(flat(videos.Properties?.BucketName)).toContain('patrol-dev-videos-');
    expect(csp).toMatch(/media-src 'self' https:\/\/patrol-dev-videos-/);
    expect(csp).toMatch(/img-src 'self' https:\/\/patrol-dev-videos-[^;]*\.s3\.[^;]* data:;/);
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.StrictTransportSecurity).toMatchObject({ Override: true });
  });

  it('sends the API a secret origin header from Secrets Manager, which the API reads from the same secret', () => {
    const apiBehaviour = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/api/*');
    expect(apiBehaviour.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    const origin = config.Origins.find((o: Json) => o.Id === apiBehaviour.TargetOriginId);
    const header = origin.OriginCustomHeaders.find((h: Json) => h.HeaderName === ORIGIN_VERIFY_HEADER);
    const secretIds = ofType(template, 'AWS::SecretsManager::Secret')
      .filter(([id]) => id.startsWith('SecretsOriginSecret'))
      .map(([id]) => id);
    expect(secretIds).toHaveLength(1);
    expect(flat(header.HeaderValue)).toContain('{{resolve:secretsmanager:');
    expect(flat(header.HeaderValue)).toContain(secretIds[0]);

    // The API reads the secret's current, pending and previous values at run time (a rotation
    // changes CloudFront's header first), never a copy of the value in its configuration.
    const api = resources(template)[functionId(template, 'api')].Properties!;
    expect(api.Environment.Variables.ORIGIN_SECRET_ARN).toEqual({ Ref: secretIds[0] });
    expect(api.Environment.Variables).not.toHaveProperty('ORIGIN_SECRET');
    // Only the API compares it.
    expect(resources(template)[functionId(template, 'checker')].Properties?.Environment.Variables).not.toHaveProperty(
      'ORIGIN_SECRET_ARN',
    );
  });
});
