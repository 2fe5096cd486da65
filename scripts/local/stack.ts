import { mkdir, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { resetClients } from '../../functions/lib/aws/clients.js';
import { LAMBDAS, type LambdaDef, QUEUES } from '../../functions/registry.js';
import type { SecondFactorPolicy } from '../../shared/schemas/auth.js';
import { startSandboxSite } from '../sandbox/site/server.js';
import { startApart } from '../sandbox/apart.js';
import { startSandboxBank } from '../sandbox/bank/server.js';
import { startSandboxTelegram } from '../sandbox/telegram/server.js';
import { startSandboxWebhook } from '../sandbox/webhook/server.js';
import { type ApiHandler, serveWithLambda } from './adapter.js';
import { seedAdmin } from './adminSeed.js';
import { startQueueConsumer, type QueueConsumer } from './consumer.js';
import { startConsumerChild } from './consumerChild.js';
import { demoSeeds } from './demo.js';
import { followSandbox } from './followSandbox.js';
import { followSandboxWebhook } from './followSandboxWebhook.js';
import { followSandboxOidc, startLocalSandboxOidc } from './sandboxOidc.js';
import { LOCAL_CREDENTIALS } from './engines/credentials.js';
import { ensureTable, startDynamo } from './engines/dynamo.js';
import { startS3 } from './engines/s3.js';
import { startSqs } from './engines/sqs.js';
import { startupEvent } from '../../functions/lib/startupEvent.js';
import { allowedPrivateHostsWith } from './allowedHosts.js';
import { ensureKeyFile } from './keys.js';
import { lambdaContext } from './lambdaContext.js';
import { lambdaEnv } from './lambdaEnv.js';
import { loadHandler, REPO_ROOT } from './loadHandler.js';
import { startLocalRuleTimer } from './localRuleTimer.js';
import { type Schedule, startSchedule } from './scheduler.js';
import { createStaticHandler } from './staticFiles.js';

export interface LocalStackOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed demo data on an empty store. */
  demo: boolean;
  /** Password of the super user `admin` when the store is empty; generated when absent. */
  adminPassword?: string;
  /**
   * `auth.second_factor` of an empty store (AUTH_SECOND_FACTOR); absent: the config's default,
   * `super`. Tests and benches that do not test sign-in pass `off`.
   */
  secondFactor?: SecondFactorPolicy;
  /** No progress lines; handler logs at WARN unless LOG_LEVEL is set. */
  quiet?: boolean;
  dynamoEngine?: 'dynalite' | 'dynamodb-local';
  /** Base URL of the console in links (notifications); default the served URL. */
  publicUrl?: string;
  /** Built web app; default web/dist. */
  webDist?: string;
  /** The Lambdas to run; default the registry's. Tests add their own. */
  lambdas?: readonly LambdaDef[];
  /**
   * The sandbox site and banks in processes of their own (a bench: they stand for remote sites and
   * banks, so their CPU is not the product's and their answers do not wait on the stack's event
   * loop). Default: in this process, which starts faster.
   */
  sandboxesApart?: boolean;
  /**
   * Keep the sandbox banks' ledger in DATA_DIR (default): a restart finds what a poll read. A bench
   * that never restarts turns it off: the ledger is written whole after every change, which at
   * hundreds of logins is most of the sandbox's CPU.
   */
  keepSandboxBankLedger?: boolean;
}

export interface LocalStack {
  url: string;
  dataDir: string;
  /** Set when the admin user was created by this start (the given or the generated password). */
  adminPassword?: string;
  /** The admin user was created by this start with a generated password (also in DATA_DIR/admin-password.txt). */
  adminPasswordGenerated: boolean;
  adminPasswordFile: string;
  /** The second-factor policy in force (`auth.second_factor`). */
  secondFactor: SecondFactorPolicy;
  /** The sandbox 4D site the checks can target, when it started. */
  sandboxSiteUrl?: string;
  /** The sandbox banks (KBZ portal under /kbz, AYA under /aya, controls under /__sandbox/bank/), when they started. */
  sandboxBankUrl?: string;
  /** The sandbox Telegram Bot API (TELEGRAM_API_URL unless the environment sets one), when it started. */
  sandboxTelegramUrl?: string;
  /** The sandbox webhook receiver (hooks at /hooks/<name>, controls under /sandbox/hooks/), when it started. */
  sandboxWebhookUrl?: string;
  /** The sandbox OIDC provider (its issuer; the single sign-on of the demo and the tests), when it started. */
  sandboxOidcUrl?: string;
  /** The environment the handlers run with (endpoints, queue URLs, table...), for tests and tools. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';
const TABLE_NAME = 'patrol';
const VIDEO_BUCKET = 'patrol-videos';
/**
 * A Bot API the developer chose, read once at load: a stack started again in the same process
 * (tests) must not take the previous stack's sandbox address, which it wrote into process.env.
 */
const CONFIGURED_TELEGRAM_API_URL = process.env.TELEGRAM_API_URL;

/**
 * A scheduled function's local period, from LOCAL_SCHEDULE_SECONDS (`name=seconds,...`): tests that
 * wait for a tick (the reports' minute tick) run it every few seconds. Locally only: the handlers
 * are the same, and in the cloud the period is the registry's.
 */
function localPeriod(name: string): number | undefined {
  for (const pair of (process.env.LOCAL_SCHEDULE_SECONDS ?? '').split(',')) {
    const [key, seconds] = pair.split('=');
    if (key?.trim() === name && Number(seconds) > 0) return Number(seconds);
  }
  return undefined;
}
/** Bound on waiting for running invocations at shutdown. */
const DRAIN_MS = 30_000;

type Cleanup = () => Promise<unknown>;

/**
 * DATA_DIR holds the keys and every stored secret: created readable by its owner only. An existing
 * directory others can enter is reported, not changed: it may be a directory the user shares on purpose.
 */
async function ensureDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { mode } = await stat(dataDir);
  if (mode & 0o077)
    console.warn(`[local] ${dataDir} is open to other users (mode ${(mode & 0o777).toString(8)}); consider chmod 700`);
}
function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen(server.address() as AddressInfo);
    });
  });
}

/**
 * The whole product on one machine: embedded engines for DynamoDB, SQS and S3, the API
 * Lambda behind an HTTP server, SQS consumers and timers for the other Lambdas, all
 * declared in functions/registry.ts. Everything it keeps lives in `dataDir`.
 * One stack per process: the handlers read their configuration from process.env. Consumers
 * that drive Chromium run in child processes without JWT_SECRET or ADMIN_PASSWORD.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  // Also when this start began, for the startup entries' requeues (functions/lib/startupEvent.ts).
  const started = Date.now();
  const dataDir = resolve(opts.dataDir);
  const host = opts.host ?? '127.0.0.1';
  const log = opts.quiet ? () => {} : (line: string) => console.log(`[local] ${line}`);
  const cleanups: Cleanup[] = [];
  const stopAll = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (error) {
        console.error('[local] stop step failed', error);
      }
    }
  };

  await ensureDataDir(dataDir);

  // The HTTP server binds first: its port is part of PUBLIC_URL, which handlers read, and
  // API requests that arrive meanwhile wait for the handler instead of being refused.
  let apiReady!: (handler: ApiHandler | undefined) => void;
  const apiHandler = new Promise<ApiHandler | undefined>((r) => {
    apiReady = r;
  });
  const lambdas = opts.lambdas ?? LAMBDAS;
  const apiDef = lambdas.find((l) => l.trigger.type === 'http') as LambdaDef;
  const serveStatic = createStaticHandler(opts.webDist ?? join(REPO_ROOT, 'web', 'dist'));
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      // The API, and the inbound bank webhook beside it (outside /api/v1, the same handler locally).
      if ((req.url ?? '/').startsWith('/api/') || (req.url ?? '/').startsWith('/webhook/')) {
        const handler = await apiHandler;
        if (!handler) {
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('The local stack failed to start');
          return;
        }
        await serveWithLambda(
          req,
          res,
          handler,
          () => lambdaContext(apiDef, REGION),
          (error) => console.error('[local] api handler threw', error),
        );
      } else await serveStatic(req, res);
    } catch (error) {
      console.error('[local] request failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    }
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => void onRequest(req, res));
  const address = await listen(server, opts.port, host);
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${address.port}`;
  const httpClosed = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeIdleConnections();
    });
  cleanups.push(async () => {
    // In-flight requests get a moment to finish; then the stragglers are cut.
    const t = setTimeout(() => server.closeAllConnections(), 5_000);
    await httpClosed();
    clearTimeout(t);
  });

  try {
    const [jwtSecret] = await Promise.all([
      ensureKeyFile(join(dataDir, 'jwt.key'), 48),
      ensureKeyFile(join(dataDir, 'secrets.key'), 32),
    ]);

    // Its ledger kept in DATA_DIR: a restart finds the statements a poll read before it.
    const bankOptions = {
      port: 0,
      ...(opts.keepSandboxBankLedger === false ? {} : { stateFile: join(dataDir, 'sandbox-bank.json') }),
    };
    const engines = await Promise.allSettled([
      startDynamo({ dataDir: join(dataDir, 'dynamo'), engine: opts.dynamoEngine ?? 'dynalite' }),
      startSqs({ queues: QUEUES, region: REGION }),
      startS3({ directory: join(dataDir, 's3'), buckets: [VIDEO_BUCKET] }),
      opts.sandboxesApart ? startApart('site', { port: 0 }) : startSandboxSite({ port: 0 }),
      opts.sandboxesApart ? startApart('bank', bankOptions) : startSandboxBank(bankOptions),
      startSandboxTelegram({ port: 0 }),
      startSandboxWebhook({ port: 0 }),
      startLocalSandboxOidc(dataDir, opts.publicUrl ?? url),
    ]);
    for (const e of engines) if (e.status === 'fulfilled') cleanups.push(() => e.value.stop());
    const [dynamo, sqs, s3, sandbox, sandboxBank, sandboxTg, sandboxHook, sandboxOidc] = engines;
    for (const e of [dynamo, sqs, s3]) if (e.status === 'rejected') throw e.reason;
    if (dynamo.status !== 'fulfilled' || sqs.status !== 'fulfilled' || s3.status !== 'fulfilled')
      throw new Error('unreachable');
    // The sandbox site is a test target, not part of the product: the stack runs without it.
    if (sandbox.status === 'rejected') console.warn('[local] sandbox site did not start:', sandbox.reason);
    const sandboxSiteUrl = sandbox.status === 'fulfilled' ? sandbox.value.url : undefined;
    // The sandbox banks likewise: the bank drivers reach them through SANDBOX_BANK_URL (docs/bank-driver.md).
    if (sandboxBank.status === 'rejected') console.warn('[local] sandbox banks did not start:', sandboxBank.reason);
    const sandboxBankUrl = sandboxBank.status === 'fulfilled' ? sandboxBank.value.url : undefined;
    if (sandboxTg.status === 'rejected') console.warn('[local] sandbox Telegram did not start:', sandboxTg.reason);
    const sandboxTelegramUrl = sandboxTg.status === 'fulfilled' ? sandboxTg.value.url : undefined;
    // The bank webhooks' receiver for the demo and the tests (scripts/sandbox/webhook).
    if (sandboxHook.status === 'rejected') console.warn('[local] sandbox webhook did not start:', sandboxHook.reason);
    const sandboxWebhookUrl = sandboxHook.status === 'fulfilled' ? sandboxHook.value.url : undefined;
    // The identity provider single sign-on is tried against locally (scripts/sandbox/oidc).
    if (sandboxOidc.status === 'rejected')
      console.warn('[local] sandbox OIDC provider did not start:', sandboxOidc.reason);
    const sandboxOidcUrl = sandboxOidc.status === 'fulfilled' ? sandboxOidc.value.url : undefined;
    // Locally the Bot API is the sandbox unless the developer points TELEGRAM_API_URL elsewhere.
    const telegramApiUrl = CONFIGURED_TELEGRAM_API_URL || sandboxTelegramUrl;
    await ensureTable(dynamo.value.endpoint, TABLE_NAME);

    const env: Record<string, string> = {
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      DYNAMO_ENDPOINT: dynamo.value.endpoint,
      SQS_ENDPOINT: sqs.value.endpoint,
      S3_ENDPOINT: s3.value.endpoint,
      TABLE_NAME,
      VIDEO_BUCKET,
      JWT_SECRET: jwtSecret,
      SECRETS_KEY_FILE: join(dataDir, 'secrets.key'),
      PUBLIC_URL: opts.publicUrl ?? url,
      ...Object.fromEntries(sqs.value.queues.map((q) => [`${q.name.toUpperCase()}_QUEUE_URL`, q.url])),
      ...(sandboxSiteUrl ? { SANDBOX_SITE_URL: sandboxSiteUrl } : {}),
      // The bank drivers' portals (functions/bank/drivers/bankPortal.ts): the sandbox banks.
      ...(sandboxBankUrl
        ? {
            SANDBOX_BANK_URL: sandboxBankUrl,
            BANK_PORTAL_KBZ: `${sandboxBankUrl}/kbz`,
            BANK_PORTAL_AYA: `${sandboxBankUrl}/aya`,
          }
        : {}),
      ...(sandboxTelegramUrl ? { SANDBOX_TELEGRAM_URL: sandboxTelegramUrl } : {}),
      ...(sandboxWebhookUrl ? { SANDBOX_WEBHOOK_URL: sandboxWebhookUrl } : {}),
      ...(sandboxOidcUrl ? { SANDBOX_OIDC_URL: sandboxOidcUrl } : {}),
      ...(telegramApiUrl ? { TELEGRAM_API_URL: telegramApiUrl } : {}),
      // The guard refuses private addresses; the stack's own sandbox targets are the exception.
      ALLOWED_PRIVATE_HOSTS: allowedPrivateHostsWith([
        sandboxSiteUrl,
        sandboxBankUrl,
        sandboxTelegramUrl,
        sandboxWebhookUrl,
        sandboxOidcUrl,
      ]),
    };
    if (!process.env.CHROMIUM_PATH) env.CHROMIUM_PATH = '/usr/bin/chromium';
    // A session token from the developer's shell would be sent with the fake keys.
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    if (opts.quiet && !process.env.LOG_LEVEL) process.env.LOG_LEVEL = 'WARN';
    Object.assign(process.env, env);
    resetClients();

    const api = (await loadHandler(apiDef)) as ApiHandler;

    // Imported only now: feature modules read the environment (e.g. LOG_LEVEL) when loaded.
    const { ensureSuperUser } = await import('../../functions/users/seed.js');
    const admin = await seedAdmin(dataDir, opts.adminPassword, ensureSuperUser);
    // Like the first password: only a store that was empty takes the policy from the start options.
    const { seedSecondFactorPolicy } = await import('../../functions/auth/policySeed.js');
    const secondFactor = await seedSecondFactorPolicy(admin.created ? opts.secondFactor : undefined);
    if (opts.demo && admin.created) {
      for (const seed of demoSeeds) await seed();
    }
    if (sandboxSiteUrl) await followSandbox(dataDir, sandboxSiteUrl);
    if (sandboxWebhookUrl) await followSandboxWebhook(dataDir, sandboxWebhookUrl);
    if (sandboxOidcUrl) await followSandboxOidc(dataDir, sandboxOidcUrl);

    const context = (def: LambdaDef) => () => lambdaContext(def, REGION);
    for (const def of lambdas.filter((l) => l.trigger.type === 'startup')) {
      try {
        await (await loadHandler(def))(startupEvent(started), context(def)());
      } catch (error) {
        console.error(`[local] startup lambda ${def.name} failed`, error);
      }
    }

    const sqsClient = new SQSClient({ region: REGION, endpoint: sqs.value.endpoint, credentials: LOCAL_CREDENTIALS });
    const consumers: QueueConsumer[] = [];
    const schedules: Schedule[] = [];
    // Registered before the engines' stops run (cleanups run in reverse): drain first.
    cleanups.push(async () => {
      const drained = await Promise.all([...consumers, ...schedules].map((c) => c.stop(DRAIN_MS)));
      if (drained.includes(false)) console.warn('[local] some invocations were still running after 30 s');
      sqsClient.destroy();
    });
    for (const def of lambdas) {
      const t = def.trigger;
      if (t.type === 'sqs') {
        const queue = sqs.value.queues.find((q) => q.name === t.queue);
        if (!queue) throw new Error(`lambda ${def.name} reads unknown queue ${t.queue}`);
        // The local runner's own knob (README); the cloud takes the stage's `concurrency` (cdk.json).
        const concurrency = Number(process.env[`${def.name.toUpperCase()}_CONCURRENCY`] || t.concurrency);
        if (def.chromium) {
          // A browser driven by site content runs apart from the server's secrets: its own
          // process, with the environment its registry `access` grants (lambdaEnv). Its spare
          // invocations (registry `spareLocally`) wait there for the slots the others free, and
          // its slots keep under the knob (`<NAME>_SLOTS_CEILING`, config.ts).
          const ceiling = { [`${def.name.toUpperCase()}_SLOTS_CEILING`]: String(concurrency) };
          const spec = {
            def,
            queueUrl: queue.url,
            queueArn: queue.arn,
            concurrency: concurrency + (t.spareLocally ?? 0),
            region: REGION,
            drainMs: DRAIN_MS,
          };
          const env = t.spareLocally ? { ...process.env, ...ceiling } : process.env;
          consumers.push(await startConsumerChild(spec, lambdaEnv(def, env)));
          continue;
        }
        consumers.push(
          startQueueConsumer({
            name: def.name,
            queueUrl: queue.url,
            queueArn: queue.arn,
            batchSize: t.batchSize,
            concurrency,
            handler: await loadHandler(def),
            context: context(def),
            sqs: sqsClient,
            region: REGION,
          }),
        );
      } else if (t.type === 'ruleSchedule') {
        schedules.push(await startLocalRuleTimer(def, context(def)));
      } else if (t.type === 'schedule') {
        schedules.push(
          startSchedule({
            name: def.name,
            everySeconds: localPeriod(def.name) ?? t.everySeconds,
            handler: await loadHandler(def),
            context: context(def),
            region: REGION,
          }),
        );
      }
    }

    // Health answers only now: a stack that says it is up also consumes its queues.
    apiReady(api);
    log(`ready in ${Date.now() - started} ms`);
    let stopping: Promise<void> | undefined;
    return {
      url,
      dataDir,
      ...(admin.password ? { adminPassword: admin.password } : {}),
      adminPasswordGenerated: admin.created && admin.generated,
      adminPasswordFile: admin.passwordFile,
      secondFactor,
      ...(sandboxSiteUrl ? { sandboxSiteUrl } : {}),
      ...(sandboxBankUrl ? { sandboxBankUrl } : {}),
      ...(sandboxTelegramUrl ? { sandboxTelegramUrl } : {}),
      ...(sandboxWebhookUrl ? { sandboxWebhookUrl } : {}),
      ...(sandboxOidcUrl ? { sandboxOidcUrl } : {}),
      env,
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    apiReady(undefined);
    await stopAll();
    throw error;
  }
}
