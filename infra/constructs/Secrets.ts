import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { StageSecretName } from '../../functions/registry.js';

export interface SecretsProps {
  removalPolicy: RemovalPolicy;
  /** Days between automatic rotations of the JWT key and the origin secret. */
  rotationDays: number;
}

/** The variable that names each secret's ARN to the functions allowed it (functions/lib/config.ts). */
export const SECRET_ARN_ENV: Record<StageSecretName, string> = {
  jwtKeys: 'JWT_SECRET_ARN',
  originSecret: 'ORIGIN_SECRET_ARN',
  adminPassword: 'ADMIN_PASSWORD_SECRET_ARN',
};

/**
 * The stage's Secrets Manager secrets, unnamed (CloudFormation names them, so a stack that failed
 * its first create leaves no name behind to collide with the retry):
 * - the JWT signing key, `{"kid", "key"}`, rotated with a new kid (functions/auth/jwtKeys.ts);
 * - the origin secret CloudFront adds to API requests, rotated onto the distribution first;
 * - the first super user's password, generated once and read by the first-user trigger.
 * Functions read them at run time (cached for minutes), never from their configuration, so a
 * rotation needs no deploy and no value sits in a template or a function's environment. Only the
 * CloudFront origin header holds the origin secret in plain text, which is why it rotates.
 */
export class Secrets extends Construct {
  readonly byName: Readonly<Record<StageSecretName, Secret>>;
  private readonly rotationDays: number;

  constructor(scope: Construct, id: string, props: SecretsProps) {
    super(scope, id);
    this.rotationDays = props.rotationDays;
    this.byName = {
      jwtKeys: new Secret(this, 'JwtSecret', {
        description: 'Patrol: the key that signs login tokens, with its key id; rotated',
        generateSecretString: {
          secretStringTemplate: JSON.stringify({ kid: 'initial' }),
          generateStringKey: 'key',
          passwordLength: 64,
          excludePunctuation: true,
        },
        removalPolicy: props.removalPolicy,
      }),
      originSecret: new Secret(this, 'OriginSecret', {
        description: 'Patrol: the header value that proves an API request came through CloudFront; rotated',
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        removalPolicy: props.removalPolicy,
      }),
      adminPassword: new Secret(this, 'AdminPassword', {
        description: 'Patrol: the first password of the super user admin; change it at first sign-in',
        generateSecretString: { passwordLength: 24, excludePunctuation: true },
        removalPolicy: props.removalPolicy,
      }),
    };
  }

  get jwtSecret(): Secret {
    return this.byName.jwtKeys;
  }

  get originSecret(): Secret {
    return this.byName.originSecret;
  }

  get adminPassword(): Secret {
    return this.byName.adminPassword;
  }

  /** The origin secret as a deploy-time reference, for CloudFront's origin header (never an environment). */
  originSecretValue(): string {
    return this.originSecret.secretValue.unsafeUnwrap();
  }

  /** Lets a function read a secret at run time, and tells it where. */
  grantRead(name: StageSecretName, fn: LambdaFunction): void {
    this.byName[name].grantRead(fn);
    fn.addEnvironment(SECRET_ARN_ENV[name], this.byName[name].secretArn);
  }

  /** Makes `fn` the rotation function of a secret, every `rotationDays`. */
  rotateWith(name: Exclude<StageSecretName, 'adminPassword'>, fn: LambdaFunction): void {
    this.byName[name].addRotationSchedule('Rotation', {
      rotationLambda: fn,
      automaticallyAfter: Duration.days(this.rotationDays),
    });
    fn.addEnvironment(SECRET_ARN_ENV[name], this.byName[name].secretArn);
  }
}
