import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface AccessLogsProps {
  removalPolicy: RemovalPolicy;
  /** Logs are deleted after this many days. */
  expiryDays: number;
}

/**
 * The bucket CloudFront and S3 write their access logs to (`cloudfront/`, `s3/<bucket>/`), expired
 * after the stage's accessLogExpiryDays. CloudFront's standard logs are delivered with an ACL, so
 * this bucket alone keeps ACLs enabled (object writer: the log delivery account owns its files).
 */
export class AccessLogs extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: AccessLogsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      // CloudFront delivers logs only to SSE-S3 buckets.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        { id: 'expire-access-logs', expiration: Duration.days(props.expiryDays) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
    });
  }
}
