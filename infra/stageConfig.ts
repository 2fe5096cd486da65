import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
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
  /**
   * A table the stage adopts instead of the one the stack creates (a point-in-time restore,
   * `npm run restore`), with its stream's ARN (the expiry handler reads it). Unset: the stack's own
   * table under its generated name, as before this setting existed.
   */
  tableName?: string;
  tableStreamArn?: string;
  /**
   * Retired indexes (functions/lib/db/tableSchema.ts RETIRED_INDEXES) the stage's table still has,
   * kept by the deploy that creates their successors; removed from the entry, the next deploy deletes
   * them (docs/deploy.md "Changing an index"). Unset: none kept.
   */
  keptIndexes?: string[];
  /**
   * Releases of the API and the checker shift by CodeDeploy (10 % for 5 minutes, rolled back on the
   * function's error alarm); off: every function's `live` alias moves to the new version at once.
   */
  canary: boolean;
  /** An AWS Budget of the stage's monthly cost, alerting at 80 % and 100 %; required with `alarms`. */
  monthlyBudgetUsd?: number;
}

/** What `-c key=value` on the command line may set over the stage's cdk.json entry. */
export interface StageOverrides {
  alarmEmail?: string;
  monthlyBudgetUsd?: number;
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
  canary: false,
};

/**
 * The shape of a stage entry in cdk.json: every key, its type, nothing else. An unknown key (a typo
 * like `removalpolicy`) fails synth naming the closest known key, instead of falling back to the
 * default silently. Ranges and rules between keys are checked after, with their own messages.
 */
const StageEntry = z
  .object({
    removalPolicy: z.string(),
    logRetentionDays: z.number(),
    logLevel: z.string(),
    apiThrottle: z.object({ rateLimit: z.number(), burstLimit: z.number() }).partial().strict(),
    videoExpiryDays: z.number(),
    alarms: z.boolean(),
    alarmEmail: z.string(),
    publicUrl: z.string(),
    domain: z
      .object({
        name: z.string(),
        hostedZone: z.object({ id: z.string(), name: z.string() }).partial().strict(),
        certificateArn: z.string(),
        apiCertificateArn: z.string(),
      })
      .partial()
      .strict(),
    secretRotationDays: z.number(),
    accessLogExpiryDays: z.number(),
    concurrency: z.record(z.string(), z.number()),
    loginRateLimitPer5Min: z.number(),
    tableName: z.string().regex(/^[a-zA-Z0-9_.-]{3,255}$/, 'must be a DynamoDB table name'),
    tableStreamArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[a-zA-Z0-9_.-]+\/stream\/.+$/,
        'must be a table stream ARN',
      ),
    keptIndexes: z.array(z.string()),
    canary: z.boolean(),
    monthlyBudgetUsd: z.number().positive(),
  })
  .partial()
  .strict();

/** Every key a stage entry may have (docs/deploy.md "Stage settings" lists each). */
export const STAGE_KEYS = Object.keys(StageEntry.shape) as (keyof StageConfig)[];

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
  const parsed = StageEntry.safeParse(own);
  if (!parsed.success) throw new Error(`Stage '${name}': ${describeIssue(parsed.error.issues[0])}`);
  const config: StageConfig = {
    ...STAGE_DEFAULTS,
    ...(parsed.data as Partial<StageConfig>),
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
  // A stage worth alarms is worth a cost ceiling; its alerts go where the alarms go.
  if (config.alarms && config.monthlyBudgetUsd === undefined) {
    throw new Error(
      `Stage '${name}' raises alarms but sets no monthly budget: set monthlyBudgetUsd under ` +
        `context.stages.${name} in cdk.json, or pass -c monthlyBudgetUsd=200`,
    );
  }
  if (
    config.monthlyBudgetUsd !== undefined &&
    !(Number.isFinite(config.monthlyBudgetUsd) && config.monthlyBudgetUsd > 0)
  ) {
    throw new Error(`Stage '${name}': monthlyBudgetUsd must be a positive number of US dollars`);
  }
  if (config.monthlyBudgetUsd !== undefined && !config.alarms) {
    throw new Error(`Stage '${name}': monthlyBudgetUsd needs alarms on (its alerts go to the alarm topic)`);
  }
  if ((config.tableName === undefined) !== (config.tableStreamArn === undefined)) {
    throw new Error(
      `Stage '${name}': tableName and tableStreamArn go together (the adopted table and its stream; npm run restore sets both)`,
    );
  }
  if (config.tableStreamArn && !config.tableStreamArn.includes(`:table/${config.tableName}/stream/`)) {
    throw new Error(`Stage '${name}': tableStreamArn is not a stream of the table '${config.tableName}'`);
  }
  if (config.domain) checkDomain(name, config.domain);
  if (config.domain && config.publicUrl) {
    throw new Error(
      `Stage '${name}': set domain or publicUrl, not both (domain makes https://<domain.name> the console URL)`,
    );
  }
  return config;
}

/** A zod issue of a stage entry as one line: an unknown key names the closest known one. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const [key] = issue.keys;
    const known = issue.path.length ? undefined : STAGE_KEYS;
    const near = known ? closest(key, known) : undefined;
    const where = issue.path.length ? ` in ${issue.path.join('.')}` : '';
    return `unknown setting '${key}'${where}${near ? ` (did you mean '${near}'?)` : ''}`;
  }
  return `${issue.path.join('.') || 'the entry'}: ${issue.message}`;
}

/** The known name nearest to `word` by edit distance (case ignored), if it is near enough to be a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++)
        row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row;
    }
    return prev[b.length];
  };
  const ranked = known.map((k) => ({ k, d: distance(word.toLowerCase(), k.toLowerCase()) })).sort((x, y) => x.d - y.d);
  return ranked[0] && ranked[0].d <= Math.max(2, Math.floor(word.length / 3)) ? ranked[0].k : undefined;
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
