import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface KeysProps {
  stage: string;
  removalPolicy: RemovalPolicy;
}

/**
 * The customer-managed key for envelope encryption of stored secrets (site and bank passwords,
 * API keys, bot tokens). Losing it makes those rows unreadable, so it outlives the table.
 */
export class Keys extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: KeysProps) {
    super(scope, id);
    this.key = new Key(this, 'SecretsKey', {
      description: `Patrol ${props.stage}: envelope encryption of stored secrets`,
      alias: `alias/patrol-${props.stage}-secrets`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
      pendingWindow: Duration.days(props.removalPolicy === RemovalPolicy.DESTROY ? 7 : 30),
    });
  }

  /**
   * Exactly the two calls of envelope encryption (functions/lib/secrets/dataKeys.ts): a data key
   * to encrypt with, and unwrapping one to decrypt; no wildcard of the key's actions.
   */
  grantEncryptDecrypt(grantee: IGrantable): void {
    this.key.grant(grantee, 'kms:GenerateDataKey', 'kms:Decrypt');
  }

  grantDecrypt(grantee: IGrantable): void {
    this.key.grant(grantee, 'kms:Decrypt');
  }
}
