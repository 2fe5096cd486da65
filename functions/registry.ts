// Every Lambda function and queue of the product, declared once. The local runner reads this
// to serve, poll and schedule the same handlers that the CDK app deploys from it.

export interface QueueDef {
  /** Logical name; the queue URL reaches handlers as `${NAME}_QUEUE_URL`. */
  name: 'check' | 'notify' | 'bank' | 'followUp';
  /** Seconds a received message stays hidden; longer than the consumer's timeout. */
  visibilityTimeout: number;
  /** Deliveries before a message goes to the dead-letter queue. */
  maxReceiveCount: number;
}

export const QUEUES: readonly QueueDef[] = [
  { name: 'check', visibilityTimeout: 180, maxReceiveCount: 3 },
  { name: 'notify', visibilityTimeout: 60, maxReceiveCount: 5 },
  { name: 'bank', visibilityTimeout: 60, maxReceiveCount: 3 },
  // A hint only (lib/db/handOff.ts): the row keeps its follow-ups, and the sweeper applies whatever a
  // message failed to.
  { name: 'followUp', visibilityTimeout: 60, maxReceiveCount: 3 },
];

export type Trigger =
  | { type: 'http' }
  | {
      type: 'sqs';
      queue: QueueDef['name'];
      batchSize: number;
      /**
       * Invocations at once. A default: the cloud takes `concurrency.<name>` of the stage in
       * cdk.json, the local runner `<NAME>_CONCURRENCY` (e.g. CHECKER_CONCURRENCY).
       */
      concurrency: number;
      /**
       * Local runner, for a browser consumer (its own process): invocations beyond `concurrency`,
       * for a handler that frees its share of the work before it answers. The checker frees its
       * browser slot, then stores the check's evidence; a spare invocation meanwhile waits in the
       * same process for that slot and starts the next check (functions/checks/checkerSlots.ts), so
       * the browsers never idle through a store. Lambda's invocations never share a process: the
       * cloud deploys `concurrency` alone.
       */
      spareLocally?: number;
    }
  | { type: 'schedule' /** EventBridge rate, in seconds */; everySeconds: number }
  /**
   * Local runner: invoked once after the engines are up, to re-enqueue pending work (local queues
   * lose their messages on restart) or to repair what an older layout left. The cloud deploys
   * nothing for it, unless `inCloud: 'byHand'`: then a function with no trigger, for an operator
   * to invoke after a deploy that needs it (docs/deploy.md).
   */
  | { type: 'startup'; inCloud?: 'byHand' }
  /**
   * Cloud only: the table's stream (old images), filtered to the deletes DynamoDB's TTL makes.
   * The local runner has no stream (its engines have no TTL; the expiry sweeper does that work).
   */
  | { type: 'stream' }
  /**
   * Invoked by the EventBridge Scheduler schedules the API keeps, one per auto-check rule slot
   * (infra/constructs/RuleSchedules.ts); locally by the rule timer (scripts/local/ruleTimer.ts).
   */
  | { type: 'ruleSchedule' }
  /**
   * Cloud only: runs after a deploy, once the table exists (a CDK trigger; again only when its
   * code changed). The local runner seeds its first user itself (scripts/local/adminSeed.ts).
   */
  | { type: 'afterDeploy' }
  /** Cloud only: Secrets Manager invokes it to rotate the secrets its `access.stageSecrets.rotate` names. */
  | { type: 'secretRotation' };

/** The stage's Secrets Manager secrets (infra/constructs/Secrets.ts); locally DATA_DIR holds their kin. */
export type StageSecretName = 'jwtKeys' | 'originSecret' | 'adminPassword';

/**
 * What a function may touch, and nothing else: the CDK app turns this into its IAM grants
 * (infra/constructs/Functions.ts). The queue a function consumes is granted by its trigger.
 */
export interface AccessDef {
  /** The main table. */
  table?: 'read' | 'readWrite';
  /**
   * The video bucket, by key prefix: GET (presigned addresses are signed with the function's own
   * rights, so it may read exactly what it serves), PUT and DELETE.
   */
  videos?: { readPrefixes?: readonly string[]; writePrefixes?: readonly string[]; deletePrefixes?: readonly string[] };
  /** Queues it enqueues work on. */
  sends?: readonly QueueDef['name'][];
  /** Reads every queue's approximate depth (`sqs:GetQueueAttributes`, nothing else): /metrics' queue family. */
  queueDepth?: boolean;
  /** The secrets key: 'decrypt' reads stored secrets; 'encryptDecrypt' also stores new ones. */
  secrets?: 'decrypt' | 'encryptDecrypt';
  /** Signs or verifies session tokens: only such a function holds JWT_SECRET (the local runner too). */
  jwt?: boolean;
  /** Creates, moves and removes the auto-check rule schedules (and passes their role to the scheduler). */
  ruleSchedules?: boolean;
  /** Cloud only: Secrets Manager secrets of the stage it reads at run time, or rotates. */
  stageSecrets?: { read?: readonly StageSecretName[]; rotate?: readonly Exclude<StageSecretName, 'adminPassword'>[] };
  /** Cloud only: rewrites the origin-verify header of the stage's CloudFront distribution. */
  distributionOrigin?: boolean;
}

/** Where a checker stores its videos and screenshots (functions/checks/runSubtask.ts). */
export const CHECK_EVIDENCE_PREFIX = 'checks/';
/** Where reports keep their PDFs (functions/reports/store.ts), with their own lifecycle rule. */
export const REPORTS_PREFIX = 'reports/';

export interface LambdaDef {
  name: string;
  /** Module path from the repo root, exporting `handler`. */
  entry: string;
  trigger: Trigger;
  memoryMb: number;
  timeoutSeconds: number;
  /** Needs a Chromium (the @sparticuz/chromium layer in the cloud). */
  chromium?: boolean;
  access: AccessDef;
}

/** Whether the CDK app deploys a function for this entry (a startup hook only when run by hand there). */
export function deploysInCloud(def: LambdaDef): boolean {
  return def.trigger.type !== 'startup' || def.trigger.inCloud === 'byHand';
}

/**
 * What applying follow-ups needs (lib/db/outbox.ts): the kinds write rows and send the next wave and
 * the chat deliveries. The sweeper, its run at a local start and the applier apply the same kinds.
 */
const FOLLOW_UP_ACCESS: AccessDef = { table: 'readWrite', sends: ['check', 'notify'] };

export const LAMBDAS: readonly LambdaDef[] = [
  {
    name: 'api',
    entry: 'functions/api.ts',
    trigger: { type: 'http' },
    memoryMb: 1024,
    timeoutSeconds: 29,
    // Reads videos to sign their addresses; never writes or deletes one. Stores site passwords.
    // Reads a report's PDF back (the schedule's printer writes it).
    access: {
      table: 'readWrite',
      videos: { readPrefixes: [CHECK_EVIDENCE_PREFIX, REPORTS_PREFIX] },
      // notify: replays of bank notifications and the deliveries of inbound bank webhooks.
      sends: ['check', 'notify', 'bank'],
      secrets: 'encryptDecrypt',
      jwt: true,
      ruleSchedules: true,
      // Cloud: the JWT keys (jwt) and the values CloudFront proves itself with (the origin gate).
      stageSecrets: { read: ['jwtKeys', 'originSecret'] },
    },
  },
  {
    name: 'checker',
    entry: 'functions/checks/checker.ts',
    // One check per invocation: on Lambda the browser runs single-process in the default context.
    trigger: { type: 'sqs', queue: 'check', batchSize: 1, concurrency: 4, spareLocally: 2 },
    memoryMb: 2048,
    timeoutSeconds: 120,
    chromium: true,
    // Decrypts account passwords and stores the site session it logged in with; hands a subtask's
    // end to the follow-up applier (which sends the next wave and the notifications).
    access: {
      table: 'readWrite',
      videos: { writePrefixes: [CHECK_EVIDENCE_PREFIX] },
      sends: ['check', 'notify', 'followUp'],
      secrets: 'encryptDecrypt',
    },
  },
  {
    // Applies the follow-ups of transitions whose writer died before it had (lib/db/outbox.ts):
    // the task counters and ends, records and notifications of the check engine, and their sends;
    // the bank's balance stats, notifications' deliveries and delivery bookkeeping; rule-slot logs.
    name: 'followUpSweeper',
    entry: 'functions/data/followUpSweep.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: FOLLOW_UP_ACCESS,
  },
  {
    // Applies the follow-ups a writer handed off instead of applying them itself (lib/db/handOff.ts):
    // a subtask's end, so the checker's slot (a Chromium) is free once the end is written.
    name: 'followUpApplier',
    entry: 'functions/data/followUpApply.ts',
    trigger: { type: 'sqs', queue: 'followUp', batchSize: 10, concurrency: 2 },
    memoryMb: 512,
    timeoutSeconds: 30,
    access: FOLLOW_UP_ACCESS,
  },
  {
    // Local runner only (startup, first of the startup entries): every follow-up written before the
    // start began, before the requeues below look at what is pending.
    name: 'followUpsAtStart',
    entry: 'functions/data/followUpSweep.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: FOLLOW_UP_ACCESS,
  },
  {
    // Every minute: the dashboard answers the console asks for, computed and stored for every
    // instance to serve (functions/lib/http/keptAnswers.ts). Reads rollups, writes one record each.
    name: 'dashboardRefresh',
    entry: 'functions/dashboard/refreshAnswers.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 1024,
    timeoutSeconds: 60,
    // The queues' depth for /metrics, stored with its figures (functions/metrics/queueDepth.ts).
    access: { table: 'readWrite', queueDepth: true },
  },
  {
    name: 'checkReaper',
    entry: 'functions/checks/reaper.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 512,
    timeoutSeconds: 60,
    // Failing a lost subtask writes notifications, whose chat delivery goes to the notify queue.
    access: { table: 'readWrite', sends: ['check', 'notify'] },
  },
  {
    name: 'checkRequeue',
    entry: 'functions/checks/requeue.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: { table: 'readWrite', sends: ['check'] },
  },
  {
    name: 'expirySweeper',
    entry: 'functions/data/sweep.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 512,
    timeoutSeconds: 60,
    // Expired video rows, raw logs and reports take their files with them.
    access: { table: 'readWrite', videos: { deletePrefixes: [CHECK_EVIDENCE_PREFIX, REPORTS_PREFIX] } },
  },
  {
    name: 'expiryStream',
    entry: 'functions/data/expiryStream.ts',
    trigger: { type: 'stream' },
    memoryMb: 256,
    timeoutSeconds: 60,
    access: { table: 'readWrite', videos: { deletePrefixes: [CHECK_EVIDENCE_PREFIX, REPORTS_PREFIX] } },
  },
  {
    // The reports' minute tick (functions/reports/scheduler.ts): each due period's report made once,
    // printed in Chromium from the console's own page, and sent to the check chat; PDFs of reports
    // made by hand printed.
    name: 'reportSchedule',
    entry: 'functions/reports/scheduler.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 2048,
    timeoutSeconds: 300,
    chromium: true,
    // Decrypts the bot token; the printer's read-scope API token is a row and key like any token.
    access: {
      table: 'readWrite',
      videos: { readPrefixes: [REPORTS_PREFIX], writePrefixes: [REPORTS_PREFIX] },
      secrets: 'decrypt',
    },
  },
  {
    // Recounts the list counters (and re-indexes rows of an older layout) when the local stack
    // starts; in the cloud, invoked by hand after a deploy that changes the layout (npm run repair),
    // resuming from its progress record when one invocation was not enough (repairProgress.ts).
    name: 'dataRepair',
    entry: 'functions/data/repair.ts',
    trigger: { type: 'startup', inCloud: 'byHand' },
    memoryMb: 512,
    timeoutSeconds: 300,
    access: { table: 'readWrite' },
  },
  {
    // The auto-check schedules put back in step with the rules the table holds (after a restore:
    // docs/deploy.md "Restore"); in the cloud, invoked by hand (npm run restore runs it).
    name: 'syncSchedules',
    entry: 'functions/autoCheck/syncSchedules.ts',
    trigger: { type: 'startup', inCloud: 'byHand' },
    memoryMb: 512,
    timeoutSeconds: 300,
    access: { table: 'read', ruleSchedules: true },
  },
  {
    name: 'siteRepair',
    entry: 'functions/sites/repair.ts',
    trigger: { type: 'schedule', everySeconds: 3600 },
    memoryMb: 512,
    timeoutSeconds: 300,
    access: { table: 'readWrite' },
  },
  {
    // The minute tick of the bank monitor: enqueues the polls due before the next tick, each
    // delayed to its second (functions/bank/dispatch.ts); flags stale accounts.
    name: 'bankDispatcher',
    entry: 'functions/bank/dispatcher.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 512,
    timeoutSeconds: 60,
    // notify: the staleness notices it creates are delivered like any bank notification.
    access: { table: 'readWrite', sends: ['notify', 'bank'] },
  },
  {
    // One poll per message, a batch at once: the work waits on the bank and the table.
    name: 'bankPoller',
    entry: 'functions/bank/poller.ts',
    trigger: { type: 'sqs', queue: 'bank', batchSize: 10, concurrency: 20 },
    memoryMb: 512,
    timeoutSeconds: 50,
    // Decrypts bank passwords and stores the portal session it signed in with; enqueues the
    // deliveries of the bank notifications it creates.
    access: { table: 'readWrite', secrets: 'encryptDecrypt', sends: ['notify'] },
  },
  {
    // Local runner only: the first bank window at start, not a minute later (the cloud's minute
    // rule has no such gap to fill: it keeps running).
    name: 'bankDispatchAtStart',
    entry: 'functions/bank/dispatcher.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    // notify: the staleness notices it creates are delivered like any bank notification.
    access: { table: 'readWrite', sends: ['notify', 'bank'] },
  },
  {
    // Delivers notifications (docs/notifications.md): check notifications to the Telegram check
    // chat. One consumer for the queue; each message kind names its sender (notifier.ts).
    name: 'notifier',
    entry: 'functions/notifier.ts',
    // Ten messages per invocation: the webhook deliveries of a batch go out at once, its Telegram
    // messages one after another (notifier.ts), so at most four reach Telegram at a time (its
    // limit is ~30 a second; a flood wait is honoured). Four at once keep deliveries level with
    // a burst of inbound statements on the local engine (bankDelivery bench: the queue held 49
    // at most, against 1,194 with two). A batch that outlasts the timeout under a long flood
    // wait comes back whole; a channel already Pushed is not sent again.
    trigger: { type: 'sqs', queue: 'notify', batchSize: 10, concurrency: 4 },
    memoryMb: 512,
    // Under the queue's 60 s visibility: a flood wait of up to 30 s is honoured in place.
    timeoutSeconds: 50,
    // Decrypts the bot token; records delivery status on notifications and the channel state.
    // Bank webhooks: decrypts the API key, makes a missing signing secret (encrypt), re-enqueues
    // a retry with its delay (sends notify).
    access: { table: 'readWrite', secrets: 'encryptDecrypt', sends: ['notify'] },
  },
  {
    // Local runner only (startup): Telegram deliveries still Pending are enqueued again.
    name: 'notifyRequeue',
    entry: 'functions/notifications/requeue.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: { table: 'read', sends: ['notify'] },
  },
  {
    // Local runner only (startup): bank webhook / chat deliveries still Pending are enqueued again.
    name: 'bankDeliveryRequeue',
    entry: 'functions/bankWebhook/requeueAtStart.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: { table: 'read', sends: ['notify'] },
  },
  {
    // One slot of an auto-check rule: starts its AutoCheck operation once (docs/auto-check.md).
    name: 'autoCheck',
    entry: 'functions/autoCheck/handler.ts',
    trigger: { type: 'ruleSchedule' },
    memoryMb: 512,
    timeoutSeconds: 60,
    access: { table: 'readWrite', sends: ['check'] },
  },
  {
    // Cloud only: the super user admin on a fresh stage, with the generated password of the
    // stack's AdminPasswordSecret; an existing user table is left alone (functions/users/firstUser.ts).
    name: 'firstUser',
    entry: 'functions/users/firstUser.ts',
    trigger: { type: 'afterDeploy' },
    // scrypt hashes the password: a larger share of a CPU than the smallest size gives.
    memoryMb: 512,
    timeoutSeconds: 60,
    access: { table: 'readWrite', stageSecrets: { read: ['adminPassword'] } },
  },
  {
    // Cloud only: rotates the JWT signing key and the origin secret (functions/auth/secretRotation.ts).
    name: 'secretRotation',
    entry: 'functions/auth/secretRotation.ts',
    trigger: { type: 'secretRotation' },
    memoryMb: 256,
    timeoutSeconds: 60,
    access: { stageSecrets: { rotate: ['jwtKeys', 'originSecret'] }, distributionOrigin: true },
  },
  {
    // The minute tick of incidents: snoozes that ran out end, and open incidents nobody acknowledged
    // are reminded of in Telegram every alerts.reminder_minutes (functions/incidents/incidentTelegram.ts).
    name: 'incidentReminder',
    entry: 'functions/incidents/reminder.ts',
    trigger: { type: 'schedule', everySeconds: 60 },
    memoryMb: 512,
    timeoutSeconds: 60,
    // The reminders themselves go out through the notifier (sends notify).
    access: { table: 'readWrite', sends: ['notify'] },
  },
  {
    // Local runner only (startup): the bot's webhook registered again at the stack's address (the
    // sandbox Bot API forgets it on a restart, and PORT may have changed).
    name: 'telegramWebhookAtStart',
    entry: 'functions/notifications/telegram/webhookAtStart.ts',
    trigger: { type: 'startup' },
    memoryMb: 512,
    timeoutSeconds: 60,
    // Decrypts the bot token, makes the webhook secret when there is none (encrypt), records the state.
    access: { table: 'readWrite', secrets: 'encryptDecrypt' },
  },
];
