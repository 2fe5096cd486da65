import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_SYSTEM_CONFIG } from '../shared/schemas/systemConfig.js';

// Per-stage settings live in cdk.json context (`stages.<name>`); everything a stage leaves out
// falls back to the cheap, disposable defaults of a development stage. docs/deploy.md lists every
// key with its default; tests/infra/stage.test.ts holds the two to each other.

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** A custom domain in front of CloudFront (and the API's own regional domain behind it). */
export interface DomainConfig {
  /** e.g. `patrol.example.com`: the console's address and the API's custom domain name. */
  name: string;
  /**
   * Route 53 hosted zone of `name`: the stage then requests and validates both certificates and
   * points `name` at CloudFront. Leave out to bring your own certificates (the two ARNs below).
   */
  hostedZone?: { id: string; name: string };
  /** ACM certificate for `name` in us-east-1, for CloudFront (when no hostedZone). */
  certificateArn?: string;
  /** ACM certificate for `name` in the deploy region, for the API's custom domain (when no hostedZone). */
  apiCertificateArn?: string;
}

export interface StageConfig {
  name: string;
  /**
   * 'retain' keeps the table, key, secrets, buckets and log groups when the stack is deleted or a
   * resource is replaced, but not when a first create fails (RETAIN_ON_UPDATE_OR_DELETE), so a
   * failed first deploy can be retried.
   */
  removalPolicy: 'retain' | 'destroy';
  /** CloudWatch Logs retention for function and access logs; one of the values CloudWatch accepts. */
  logRetentionDays: number;
  logLevel: LogLevel;
  /** HTTP API stage throttling (requests per second, steady and burst). */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** Recorded check videos are deleted by S3 after this many days. */
  videoExpiryDays: number;
  /** CloudWatch alarms (docs/deploy.md, "Alarms and what to do"), sent to an SNS topic. */
  alarms: boolean;
  /** Subscribed to the alarm topic; required when `alarms` is on (`-c alarmEmail=…` overrides it). */
  alarmEmail?: string;
  /** Console URL when a custom domain fronts CloudFront outside this stack; `domain` sets it itself. */
  publicUrl?: string;
  /** Custom domain with TLS 1.2 at least; without it the distribution's own domain serves the console. */
  domain?: DomainConfig;
  /** Days between automatic rotations of the JWT signing key and the origin secret. */
  secretRotationDays: number;
  /** CloudFront and S3 access logs are deleted from the log bucket after this many days. */
  accessLogExpiryDays: number;
  /**
   * Invocations at once of queue consumers, by registry name, e.g. `{ "checker": 4 }` (at least 2,
   * the Lambda minimum). Unset ones keep the registry default. Never read from the deployer's shell.
   */
  concurrency: Record<string, number>;
  /** WAF rate-based rule on /api/v1/login and /api/v1/captcha: requests per client address per 5 minutes. */
  loginRateLimitPer5Min: number;
}

/** What `-c key=value` on the command line may set over the stage's cdk.json entry. */
export interface StageOverrides {
  alarmEmail?: string;
}

export const DEFAULT_STAGE = 'dev';

export const STAGE_DEFAULTS: Omit<StageConfig, 'name'> = {
  removalPolicy: 'destroy',
  logRetentionDays: 14,
  logLevel: 'INFO',
  apiThrottle: { rateLimit: 50, burstLimit: 100 },
  videoExpiryDays: 365,
  alarms: false,
  secretRotationDays: 30,
  accessLogExpiryDays: 90,
  concurrency: {},
  loginRateLimitPer5Min: 100,
};

const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
const RETENTION_VALUES = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The named stage from the `stages` context object, with defaults filled in; throws on a typo. */
export function resolveStageConfig(stages: unknown, name: string, overrides: StageOverrides = {}): StageConfig {
  const table = (stages ?? {}) as Record<string, Partial<StageConfig> | undefined>;
  const own = table[name];
  if (!own) {
    const known = Object.keys(table).join(', ') || 'none';
    throw new Error(`Unknown stage '${name}': add it under context.stages in cdk.json (known: ${known})`);
  }
  const config: StageConfig = {
    ...STAGE_DEFAULTS,
    ...own,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined && v !== '')),
    apiThrottle: { ...STAGE_DEFAULTS.apiThrottle, ...own.apiThrottle },
    concurrency: { ...STAGE_DEFAULTS.concurrency, ...own.concurrency },
    name,
  };
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(name)) {
    throw new Error(`Stage name '${name}' must be lower-case letters, digits and dashes (it names the stack)`);
  }
  if (config.removalPolicy !== 'retain' && config.removalPolicy !== 'destroy') {
    throw new Error(`Stage '${name}': removalPolicy must be 'retain' or 'destroy'`);
  }
  if (!RETENTION_VALUES.has(config.logRetentionDays)) {
    throw new Error(`Stage '${name}': logRetentionDays ${config.logRetentionDays} is not a CloudWatch retention value`);
  }
  if (!LOG_LEVELS.includes(config.logLevel)) {
    throw new Error(`Stage '${name}': logLevel must be one of ${LOG_LEVELS.join(', ')}`);
  }
  // The bucket's expiry is a backstop behind the console's own retention: below the default video
  // retention, a fresh stage would lose videos its rows still link to.
  const videoRetention = DEFAULT_SYSTEM_CONFIG.retention_days.videos;
  if (!(config.videoExpiryDays > videoRetention)) {
    throw new Error(
      `Stage '${name}': videoExpiryDays must be above the console's default video retention (${videoRetention} days)`,
    );
  }
  if (!(config.accessLogExpiryDays >= 1)) throw new Error(`Stage '${name}': accessLogExpiryDays must be at least 1`);
  // Secrets Manager rotates every 1 to 1000 days; a JWT key must outlive the longest session (12 h).
  if (
    !Number.isInteger(config.secretRotationDays) ||
    config.secretRotationDays < 1 ||
    config.secretRotationDays > 1000
  ) {
    throw new Error(`Stage '${name}': secretRotationDays must be a whole number from 1 to 1000`);
  }
  for (const [fn, n] of Object.entries(config.concurrency)) {
    if (!Number.isInteger(n) || n < 2 || n > 1000) {
      throw new Error(`Stage '${name}': concurrency.${fn} must be a whole number from 2 to 1000 (Lambda's SQS range)`);
    }
  }
  // WAF's smallest rate limit is 10 requests per evaluation window.
  if (!Number.isInteger(config.loginRateLimitPer5Min) || config.loginRateLimitPer5Min < 10) {
    throw new Error(`Stage '${name}': loginRateLimitPer5Min must be a whole number of at least 10`);
  }
  // Alarms that reach nobody are no alarms: a stage that raises them must say where they go.
  if (config.alarms && !config.alarmEmail) {
    throw new Error(
      `Stage '${name}' raises alarms but names nobody to send them to: set alarmEmail under ` +
        `context.stages.${name} in cdk.json, or pass -c alarmEmail=ops@example.com`,
    );
  }
  if (config.alarmEmail !== undefined && !EMAIL.test(config.alarmEmail)) {
    throw new Error(`Stage '${name}': alarmEmail '${config.alarmEmail}' is not an e-mail address`);
  }
  if (config.domain) checkDomain(name, config.domain);
  if (config.domain && config.publicUrl) {
    throw new Error(
      `Stage '${name}': set domain or publicUrl, not both (domain makes https://<domain.name> the console URL)`,
    );
  }
  return config;
}

function checkDomain(stage: string, domain: DomainConfig): void {
  if (!HOST_NAME.test(domain.name ?? '')) {
    throw new Error(`Stage '${stage}': domain.name '${domain.name}' is not a lower-case host name`);
  }
  if (domain.hostedZone) {
    if (!domain.hostedZone.id || !domain.hostedZone.name) {
      throw new Error(`Stage '${stage}': domain.hostedZone needs both id and name`);
    }
    if (domain.name !== domain.hostedZone.name && !domain.name.endsWith(`.${domain.hostedZone.name}`)) {
      throw new Error(
        `Stage '${stage}': domain.name '${domain.name}' is not inside the zone '${domain.hostedZone.name}'`,
      );
    }
    return;
  }
  const arn = (value: string | undefined, region?: string) =>
    value !== undefined &&
    /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[\w-]+$/.test(value) &&
    (region === undefined || value.split(':')[3] === region);
  if (!arn(domain.certificateArn, 'us-east-1')) {
    throw new Error(
      `Stage '${stage}': domain needs a hostedZone, or certificateArn: an ACM certificate in us-east-1 (CloudFront reads only those)`,
    );
  }
  if (!arn(domain.apiCertificateArn)) {
    throw new Error(
      `Stage '${stage}': domain needs a hostedZone, or apiCertificateArn: an ACM certificate for ${domain.name} in the deploy region`,
    );
  }
}
