import { RetentionDays } from 'aws-cdk-lib/aws-logs';

// Per-stage settings live in cdk.json context (`stages.<name>`); everything a stage leaves out
// falls back to the cheap, disposable defaults of a development stage.

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface StageConfig {
  name: string;
  /** 'retain' keeps the table, key, secret and buckets when the stack is deleted. */
  removalPolicy: 'retain' | 'destroy';
  /** CloudWatch Logs retention for function and access logs; one of the values CloudWatch accepts. */
  logRetentionDays: number;
  logLevel: LogLevel;
  /** HTTP API stage throttling (requests per second, steady and burst). */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** Recorded check videos are deleted by S3 after this many days. */
  videoExpiryDays: number;
  /** CloudWatch alarms on dead letters, function errors and API 5xx, sent to an SNS topic. */
  alarms: boolean;
  alarmEmail?: string;
  /** Console URL when a custom domain fronts CloudFront; otherwise the distribution's own domain. */
  publicUrl?: string;
  /** Bump to make CloudFormation re-read the JWT secret into the API function after changing it. */
  jwtSecretRevision: number;
  /**
   * Invocations at once of queue consumers, by registry name, e.g. `{ "checker": 4 }` (at least 2,
   * the Lambda minimum). Unset ones keep the registry default. Never read from the deployer's shell.
   */
  concurrency: Record<string, number>;
  /** WAF rate-based rule on /api/v1/login and /api/v1/captcha: requests per client address per 5 minutes. */
  loginRateLimitPer5Min: number;
}

export const DEFAULT_STAGE = 'dev';

const DEFAULTS: Omit<StageConfig, 'name'> = {
  removalPolicy: 'destroy',
  logRetentionDays: 14,
  logLevel: 'INFO',
  apiThrottle: { rateLimit: 50, burstLimit: 100 },
  videoExpiryDays: 90,
  alarms: false,
  jwtSecretRevision: 1,
  concurrency: {},
  loginRateLimitPer5Min: 100,
};

const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
const RETENTION_VALUES = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

/** The named stage from the `stages` context object, with defaults filled in; throws on a typo. */
export function resolveStageConfig(stages: unknown, name: string): StageConfig {
  const table = (stages ?? {}) as Record<string, Partial<StageConfig> | undefined>;
  const own = table[name];
  if (!own) {
    const known = Object.keys(table).join(', ') || 'none';
    throw new Error(`Unknown stage '${name}': add it under context.stages in cdk.json (known: ${known})`);
  }
  const config: StageConfig = {
    ...DEFAULTS,
    ...own,
    apiThrottle: { ...DEFAULTS.apiThrottle, ...own.apiThrottle },
    concurrency: { ...DEFAULTS.concurrency, ...own.concurrency },
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
  if (!(config.videoExpiryDays >= 1)) throw new Error(`Stage '${name}': videoExpiryDays must be at least 1`);
  for (const [fn, n] of Object.entries(config.concurrency)) {
    if (!Number.isInteger(n) || n < 2 || n > 1000) {
      throw new Error(`Stage '${name}': concurrency.${fn} must be a whole number from 2 to 1000 (Lambda's SQS range)`);
    }
  }
  // WAF's smallest rate limit is 10 requests per evaluation window.
  if (!Number.isInteger(config.loginRateLimitPer5Min) || config.loginRateLimitPer5Min < 10) {
    throw new Error(`Stage '${name}': loginRateLimitPer5Min must be a whole number of at least 10`);
  }
  return config;
}
