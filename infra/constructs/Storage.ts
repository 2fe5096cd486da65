import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CHECK_EVIDENCE_PREFIX, REPORTS_PREFIX } from '../../functions/registry.js';

export interface StorageProps {
  stage: string;
  removalPolicy: RemovalPolicy;
  /** Where S3 writes the bucket's server access logs (AccessLogs). */
  accessLogs: IBucket;
  /**
   * A backstop: files go with their rows at the configured retention (functions/data/expiredFiles.ts);
   * S3 deletes any file left after this many days. Keep it above the longest retention operators set.
   */
  videoExpiryDays: number;
  /**
   * The same backstop for reports (`reports/`: their figures and PDFs, kept `retention_days.reports`);
   * default REPORT_EXPIRY_DAYS.
   */
  reportExpiryDays?: number;
}

/** Reports' files outlive their rows' default retention (400 days) by a year before S3 removes them. */
export const REPORT_EXPIRY_DAYS = 765;

/** The private bucket of recorded check videos; the console plays them through presigned GET URLs. */
export class Storage extends Construct {
  readonly bucket: Bucket;
  /**
   * `https://<bucket>.s3.<region>.amazonaws.com`, where presigned addresses point, built from the
   * bucket's fixed name rather than read from the bucket: the console's CSP names it, the console's
   * distribution carries that CSP, and the bucket's CORS rule names the distribution, so a reference
   * back to the bucket would close a circle CloudFormation refuses.
   */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const disposable = props.removalPolicy === RemovalPolicy.DESTROY;
    const stack = Stack.of(this);
    const bucketName = `patrol-${props.stage}-videos-${stack.account}-${stack.region}`;
    this.origin = `https://${bucketName}.s3.${stack.region}.${stack.urlSuffix}`;
    this.bucket = new Bucket(this, 'Videos', {
      // The one named resource of the stack's data: the console's CSP names it (see `origin`).
      bucketName,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/videos/',
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // SSE-S3 rather than KMS: presigned GETs then need no kms:Decrypt and cost no KMS request per view.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        // By prefix: check evidence and reports expire apart.
        { id: 'expire-videos', prefix: CHECK_EVIDENCE_PREFIX, expiration: Duration.days(props.videoExpiryDays) },
        {
          id: 'expire-reports',
          prefix: REPORTS_PREFIX,
          expiration: Duration.days(props.reportExpiryDays ?? REPORT_EXPIRY_DAYS),
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: disposable,
    });
  }

  /** The `<video>` element of the console fetches presigned URLs cross-origin. */
  allowWebOrigin(origin: string): void {
    this.bucket.addCorsRule({
      allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
      allowedOrigins: [origin],
      allowedHeaders: ['Range'],
      exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag'],
      maxAge: 3600,
    });
  }

  /**
   * GetObject under one key prefix, nothing else (no listing): presigned GET addresses carry the
   * signer's rights, and the API signs only the evidence it serves.
   */
  grantRead(grantee: IGrantable, prefix: string): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${prefix}*`)] }),
    );
  }

  /** PutObject under one key prefix only, e.g. `checks/`. */
  grantPut(grantee: IGrantable, prefix: string): void {
    // PutObject alone: uploads are single requests (functions/lib/storage/objects.ts), no multipart.
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects(`${prefix}*`)] }),
    );
  }

  /** DeleteObject under a prefix: the files of expired rows (functions/data/expiredFiles.ts). */
  grantDelete(grantee: IGrantable, prefix: string): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [this.bucket.arnForObjects(`${prefix}*`)] }),
    );
  }
}
