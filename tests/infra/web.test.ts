import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { SPA_FALLBACK_CODE } from '../../infra/constructs/spaFallback.js';
import { synthStack, testStage } from './synthStack.js';
import { type Json, ofType, resources } from './templateQueries.js';

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** Runs the CloudFront Function's code the way CloudFront calls it, for one viewer request. */
function rewrite(uri: string): string {
  const handler = new Function(`${SPA_FALLBACK_CODE}; return handler;`)();
  return handler({ request: { uri, method: 'GET', headers: {}, querystring: {} } }).uri;
}

describe('Web: the console behind CloudFront', () => {
  const { template } = synthStack();
  const [[, distribution]] = ofType(template, 'AWS::CloudFront::Distribution');
  const config = distribution.Properties?.DistributionConfig;

  it('forwards /api/* to the HTTP API uncached, with every viewer header but Host and every method', () => {
    const apiBehaviour = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/api/*');
    expect(apiBehaviour).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
      ViewerProtocolPolicy: 'https-only',
    });
    const origin = config.Origins.find((o: Json) => o.Id === apiBehaviour.TargetOriginId);
    const [[apiId]] = ofType(template, 'AWS::ApiGatewayV2::Api');
    expect(JSON.stringify(origin.DomainName)).toContain(apiId);
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
  });

  it('forwards the inbound bank webhook (/webhook/*) to the same API origin, like /api/*', () => {
    const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/api/*');
    const hook = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/webhook/*');
    expect(hook).toEqual({ ...api, PathPattern: '/webhook/*' });
  });

  it('serves index.html at the root and reaches the private bucket through origin access control', () => {
    expect(config.DefaultRootObject).toBe('index.html');
    const origin = config.Origins.find((o: Json) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(origin.OriginAccessControlId).toBeDefined();
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
  });

  it('answers console routes with index.html on the console behaviour only', () => {
    const [[fnId]] = ofType(template, 'AWS::CloudFront::Function');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
    const apiBehaviour = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/api/*');
    expect(apiBehaviour.FunctionAssociations).toBeUndefined();
    expect(resources(template)[fnId].Properties?.FunctionCode).toBe(SPA_FALLBACK_CODE);
  });

  it.each([
    ['/sites', '/index.html'],
    ['/operations/12/tasks', '/index.html'],
    ['/auth/login', '/index.html'],
    ['/', '/index.html'],
    ['/assets/index-3f2a.js', '/assets/index-3f2a.js'],
    ['/favicon.ico', '/favicon.ico'],
  ])('serves %s from %s', (uri, served) => {
    expect(rewrite(uri)).toBe(served);
  });

  it("leaves the API's own 403 and 404 answers alone: no distribution-wide error pages", () => {
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('blocks public access to every bucket (console, videos, access logs) and refuses plain HTTP', () => {
    const buckets = ofType(template, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(3);
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties?.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties?.BucketEncryption, id).toBeDefined();
    }
    for (const [, policy] of ofType(template, 'AWS::S3::BucketPolicy')) {
      expect(policy.Properties?.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('lets the console play videos cross-origin and expires them after the stage setting', () => {
    const [[, videos]] = ofType(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('StorageVideos'));
    expect(videos.Properties?.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: [expect.anything()] }),
    ]);
    expect(JSON.stringify(videos.Properties?.CorsConfiguration.CorsRules[0].AllowedOrigins)).toContain(
      'WebDistribution',
    );
    expect(videos.Properties?.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: testStage('dev').videoExpiryDays, Status: 'Enabled' }),
    );
  });

  it('uploads nothing and warns the deployer when the console is not built', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    const { stack } = synthStack({ keepWarnings: true });
    Annotations.fromStack(stack).hasWarning('/Patrol-dev/Web', Match.stringLikeRegexp("Run 'npm run build'"));
  });
});

describe('Web: a built console', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'patrol-web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-3f2a.js'), 'console.log(1)');
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  const { app, template } = synthStack({ webDistDir: dist });

  /** Files of the asset a BucketDeployment uploads, read from the cloud assembly. */
  function uploadedFiles(deployment: Json): string[] {
    const [key] = deployment.Properties.SourceObjectKeys;
    const dir = path.join(app.outdir, `asset.${String(key).replace(/\.zip$/, '')}`);
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  }

  it('uploads hashed assets as immutable and index.html as no-cache, invalidating index.html', () => {
    const deployments = ofType(template, 'AWS::S3::BucketDeployment').concat(
      ofType(template, 'Custom::CDKBucketDeployment'),
    );
    expect(deployments).toHaveLength(2);
    const index = deployments.find(([, d]) => d.Properties?.DistributionPaths)?.[1];
    const assets = deployments.find(([, d]) => !d.Properties?.DistributionPaths)?.[1];
    expect(uploadedFiles(index)).toEqual(['index.html']);
    expect(uploadedFiles(assets)).toEqual([path.join('assets', 'index-3f2a.js')]);
    expect(index?.Properties?.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(assets?.Properties?.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(index?.Properties?.DistributionPaths).toEqual(['/index.html']);
    expect(assets?.Properties?.Prune).toBe(false);
  });
});
