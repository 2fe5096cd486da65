// Configuration comes from the environment only: the local runner and the CDK stack set the
// same variables with different values, so no handler knows where it runs.

import type { QueueDef } from '../registry.js';

function env(name: string, fallback?: string): string {
  const v = process.env[name];
  if (v !== undefined && v !== '') return v;
  if (fallback !== undefined) return fallback;
  throw new Error(`Missing configuration: ${name}`);
}

export const config = {
  get region() {
    return env('AWS_REGION', 'us-east-1');
  },
  /** Set locally to the embedded engines; unset in the cloud. */
  get dynamoEndpoint() {
    return process.env.DYNAMO_ENDPOINT || undefined;
  },
  get sqsEndpoint() {
    return process.env.SQS_ENDPOINT || undefined;
  },
  get s3Endpoint() {
    return process.env.S3_ENDPOINT || undefined;
  },
  get tableName() {
    return env('TABLE_NAME', 'patrol');
  },
  get videoBucket() {
    return env('VIDEO_BUCKET', 'patrol-videos');
  },
  /** Queue URLs by logical name, e.g. CHECK_QUEUE_URL. */
  queueUrl(name: QueueDef['name']): string {
    return env(`${name.toUpperCase()}_QUEUE_URL`);
  },
  /**
   * Locally: the JWT signing keys as lines of `<kid> <key>`, the first one signing (a single bare
   * key is one key of its own). Unset in the cloud, where JWT_SECRET_ARN names them.
   */
  get jwtSecret() {
    return env('JWT_SECRET');
  },
  /** Cloud: the Secrets Manager secret of the JWT signing key (`{kid, key}`), rotated (functions/auth/jwtKeys.ts). */
  get jwtSecretArn() {
    return process.env.JWT_SECRET_ARN || undefined;
  },
  /** Session length of a login token. */
  get jwtTtlSeconds() {
    return Number(env('JWT_TTL_SECONDS', String(12 * 3600)));
  },
  /** KMS key for envelope encryption in the cloud; locally SECRETS_KEY_FILE is used instead. */
  get kmsKeyId() {
    return process.env.KMS_KEY_ID || undefined;
  },
  get secretsKeyFile() {
    return process.env.SECRETS_KEY_FILE || undefined;
  },
  /** `host` or `host:port` entries outbound calls may reach although they are private (ALLOWED_PRIVATE_HOSTS). */
  get allowedPrivateHosts(): string[] {
    return (process.env.ALLOWED_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  },
  /**
   * Locally: the checker slots' ceiling (CHECKER_CONCURRENCY), set because the runner's spare
   * invocations (registry `spareLocally`) could otherwise run more browsers than it. Unset in the
   * cloud, where the checker's reserved concurrency is the ceiling.
   */
  get checkerSlotsCeiling(): number | undefined {
    const v = Number(process.env.CHECKER_SLOTS_CEILING);
    return Number.isInteger(v) && v > 0 ? v : undefined;
  },
  get chromiumPath() {
    return process.env.CHROMIUM_PATH || undefined;
  },
  /**
   * Locally: socket addresses of proxies whose X-Forwarded-For is believed (comma-separated).
   * Unset, the socket address is the client. The cloud reads CloudFront's header instead.
   */
  get trustedProxies(): string[] {
    return (process.env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  },
  /**
   * The value CloudFront puts in the origin-verify header; proves a request came through it.
   * Set directly in tests; in the cloud ORIGIN_SECRET_ARN names the rotated secret instead.
   */
  get originSecret() {
    return process.env.ORIGIN_SECRET || undefined;
  },
  get originSecretArn() {
    return process.env.ORIGIN_SECRET_ARN || undefined;
  },
  /** Cloud, first-user trigger only: the secret holding the first super user's password. */
  get adminPasswordSecretArn() {
    return env('ADMIN_PASSWORD_SECRET_ARN');
  },
  /** Cloud, secret rotation only: the distribution whose API origins carry the origin secret. */
  get distributionId() {
    return env('DISTRIBUTION_ID');
  },
  /** Root of the Telegram Bot API (`<root>/bot<token>/sendMessage`); locally the sandbox Bot API. */
  get telegramApiUrl() {
    return env('TELEGRAM_API_URL', 'https://api.telegram.org').replace(/\/+$/, '');
  },
  /** Public base URL of the console, for links in notifications. */
  get publicUrl() {
    return env('PUBLIC_URL', 'http://127.0.0.1:3000');
  },
};
