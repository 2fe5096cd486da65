import { existsSync } from 'node:fs';
import path from 'node:path';
import { Annotations, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../functions/auth/clientIp.js';
import { consoleCsp } from '../../shared/consoleHeaders.js';
import { SPA_FALLBACK_CODE } from './spaFallback.js';

export interface WebProps {
  stage: string;
  /** Host name CloudFront reaches the HTTP API at (Api.originDomainName), served under /api/* and /webhook/*. */
  apiDomainName: string;
  /**
   * Forward the viewer's Host header to the API: needed when the API answers only at the custom
   * domain (API Gateway routes a custom domain by the name the request asks for).
   */
  forwardHostToApi: boolean;
  /** The custom domain and its us-east-1 certificate; TLS 1.2 at least for viewers. */
  domain?: { name: string; certificate: ICertificate };
  /** Bucket of CloudFront's and the console bucket's access logs. */
  accessLogs: IBucket;
  /** Retention of the upload function's logs, like every function's. */
  logRetentionDays: number;
  /** The built console (`npm run build`); skipped with a warning when absent. */
  distDir: string;
  removalPolicy: RemovalPolicy;
  /** Origin of the presigned video and screenshot addresses (the video bucket), for the CSP. */
  videoOrigin: string;
  /** Sent to the API as ORIGIN_VERIFY_HEADER on every request, so it can trust CloudFront's viewer address. */
  originSecret: string;
  /** ARN of the WAF web ACL (scope CLOUDFRONT, made in us-east-1 by PatrolEdgeStack). */
  webAclArn?: string;
}

export const API_PATH_PATTERN = '/api/*';
export const WEBHOOK_PATH_PATTERN = '/webhook/*';

/**
 * The console: a private bucket behind CloudFront (origin access control), with the API on the
 * same origin under /api/* so the web calls relative URLs as the spec requires.
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<distribution domain> */
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const disposable = props.removalPolicy === RemovalPolicy.DESTROY;
    this.bucket = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/console/',
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: disposable,
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', {
      comment: 'Serve index.html for console routes',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(SPA_FALLBACK_CODE),
    });

    const consoleHeaders = new ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      comment: `Patrol ${props.stage}: CSP and framing rules of the console`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleCsp([props.videoOrigin]), override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });

    const apiBehaviour = {
      origin: new HttpOrigin(props.apiDomainName, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        // CloudFront replaces a viewer's header of this name, so only it can send the secret.
        customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originSecret },
      }),
      // A redirect would turn a POST into a GET.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // API Gateway routes by its own Host name; everything else (Authorization, trace id,
      // fingerprint) must reach the handler, and CloudFront's own headers with it: this policy
      // adds CloudFront-Viewer-Address, the client address the login throttle counts by. Behind a
      // custom domain the Host goes too: it is the name the API's domain is mapped at.
      originRequestPolicy: props.forwardHostToApi
        ? OriginRequestPolicy.ALL_VIEWER_AND_CLOUDFRONT_2022
        : OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Patrol ${props.stage} console`,
      webAclId: props.webAclArn,
      // The distribution's own *.cloudfront.net certificate allows TLS 1.0, whatever is asked;
      // a custom domain's certificate gets TLS 1.2 at least.
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: props.domain.certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultRootObject: 'index.html',
      // An internal console used from a few regions: the cheapest edge set is enough.
      priceClass: PriceClass.PRICE_CLASS_100,
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: consoleHeaders,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [API_PATH_PATTERN]: apiBehaviour,
        // The inbound bank webhook (outside /api/v1) reaches the same API on the console's origin.
        [WEBHOOK_PATH_PATTERN]: apiBehaviour,
      },
    });
    this.url = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;

    if (existsSync(path.join(props.distDir, 'index.html'))) {
      this.deploy(props.distDir, props);
    } else {
      Annotations.of(this).addWarningV2(
        'patrol:web-not-built',
        `${props.distDir} has no index.html: the console is not uploaded. Run 'npm run build' before deploying.`,
      );
    }
  }

  /**
   * Hashed assets are immutable; index.html must be re-fetched so a deploy reaches open tabs. The
   * assets go up first and index.html only after them (a CloudFormation dependency), so no
   * index.html is ever served that names a chunk not there yet; then index.html alone is invalidated.
   */
  private deploy(distDir: string, props: WebProps): void {
    // The upload functions' logs, kept and removed like every function's (CDK would retain them).
    const uploadLogs = (id: string) =>
      new LogGroup(this, id, {
        retention: props.logRetentionDays as RetentionDays,
        removalPolicy: props.removalPolicy,
      });
    // Old chunks stay (prune: false) so a tab opened before a deploy can still load its lazy routes.
    const assets = new BucketDeployment(this, 'Assets', {
      sources: [Source.asset(distDir, { exclude: ['index.html'] })],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      memoryLimit: 512,
      logGroup: uploadLogs('AssetsUploadLogs'),
    });
    const index = new BucketDeployment(this, 'Index', {
      sources: [Source.asset(distDir, { exclude: ['*', '!index.html'] })],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
      logGroup: uploadLogs('IndexUploadLogs'),
    });
    index.node.addDependency(assets);
  }
}
