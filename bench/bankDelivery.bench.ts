// Bank notification delivery figures on the local stack (issue 15): BENCH_DELIVERY_COUNT (10,000)
// statements pushed through the inbound bank webhook (POST /webhook/bank with each account's API
// key: the production path of a pushed statement, recorded by the poller's storeStatement, which
// creates the bank notification and enqueues its delivery on the notify queue), delivered by the
// notifier consumer (functions/bankWebhook/deliver.ts) to the sandbox webhook receiver.
//
// Phases, one stack, one process (startLocalStack as `npm start` runs it, DEMO off, its own temp
// DATA_DIR; API, notifier, fauxqs and the receiver share this process, dynalite is its child):
// - raw: the raw queue's throughput on the same fauxqs: N messages of the delivery message's size
//   sent one per call (as a notification enqueues its delivery) by as many senders as accounts,
//   then received and deleted with the notifier's batch size and concurrency (the consumer's
//   ReceiveMessage / DeleteMessageBatch calls, nothing else);
// - burst: the N statements as fast as BENCH_DELIVERY_ACCOUNTS (20) senders push them, one call
//   at a time per account (the account's lease serialises them anyway): deliveries per second;
//   its statement→delivery times include the wait in the queue behind the burst;
// - paced: BENCH_DELIVERY_PACED_COUNT (N/10, at most 1,000) statements at BENCH_DELIVERY_RATE per
//   second (default BENCH_DELIVERY_PACED_LOAD = 0.5 of the burst's deliveries per second): the
//   statement→delivery time of a stack that keeps up, the figure the 2 s target is about.
// Statement→delivery is the statement's created_at (= its notification's) to the receiver's
// receive time. Read/write units: every DynamoDB call with ReturnConsumedCapacity, split by whether
// it ran inside a notifier invocation (bench/measuredNotifier.ts) or not (the inbound webhook).
// The inbound per-key budget (BANK_WEBHOOK_RATE_LIMIT, 120 a minute) is lifted unless set: the
// limiter still counts every call, it just never refuses one.
// At the end: the receiver got every notification exactly once, each ended delivered, one history
// row each. Figures to stdout and bench/results/bankDelivery.json.

import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { StoredBankNotification as Notification } from '../functions/bank/store.js';
import { LAMBDAS } from '../functions/registry.js';
import { LOCAL_CREDENTIALS } from '../scripts/local/engines/credentials.js';
import { startLocalStack } from '../scripts/local/stack.js';
import type { ReceivedDelivery } from '../scripts/sandbox/webhook/server.js';
import { isReadCommand } from './readCommand.js';

const COUNT = Number(process.env.BENCH_DELIVERY_COUNT ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_DELIVERY_ACCOUNTS ?? 20);
const PACED_COUNT = Number(process.env.BENCH_DELIVERY_PACED_COUNT ?? Math.min(1000, Math.ceil(COUNT / 10)));
const PACED_LOAD = Number(process.env.BENCH_DELIVERY_PACED_LOAD ?? 0.5);
const PACED_RATE = process.env.BENCH_DELIVERY_RATE ? Number(process.env.BENCH_DELIVERY_RATE) : undefined;
/** A phase that delivers nothing new for this long is reported as it stands. */
const STALL_MS = 120_000;
const TARGET_P95_MS = 2000;

const notifierDef = LAMBDAS.find((l) => l.name === 'notifier');
if (notifierDef?.trigger.type !== 'sqs') throw new Error('the registry has no notifier queue consumer');
const NOTIFIER = {
  batchSize: notifierDef.trigger.batchSize,
  // The local runner's knob, as scripts/local/stack.ts reads it.
  concurrency: Number(process.env.NOTIFIER_CONCURRENCY || notifierDef.trigger.concurrency),
};

process.env.BANK_WEBHOOK_RATE_LIMIT ??= String(1e9);

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : Number.NaN;
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: Math.round(quantile(s, 0.5)), p95: Math.round(quantile(s, 0.95)), max: Math.round(s.at(-1) ?? NaN) };
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const perSecond = (n: number, ms: number) => +(n / (ms / 1000)).toFixed(1);

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-delivery-'));
const startedAt = new Date();
console.log(
  `${COUNT} statements (burst) + ${PACED_COUNT} (paced) over ${ACCOUNTS} accounts; notifier batch ${NOTIFIER.batchSize}, concurrency ${NOTIFIER.concurrency}; ${cpus().length} cores, load ${load()}`,
);
const stack = await startLocalStack({
  dataDir,
  secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: 'bench-admin-1',
  // The registry's Lambdas, the notifier's entry wrapped to be measured (same handler).
  lambdas: LAMBDAS.map((l) => (l.name === 'notifier' ? { ...l, entry: 'bench/measuredNotifier.ts' } : l)),
}).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
// The consumer's own kind of client (scripts/local/stack.ts), for the raw baseline and the depth samples.
const sqs = new SQSClient({
  region: stack.env.AWS_REGION,
  endpoint: stack.env.SQS_ENDPOINT,
  credentials: LOCAL_CREDENTIALS,
});
let exitCode = 0;
try {
  const receiver = stack.sandboxWebhookUrl;
  if (!receiver) throw new Error('the sandbox webhook receiver did not start');
  // Loaded after the stack set the environment, as the stack's own handlers are.
  const { dynamoClient, sqsClient } = await import('../functions/lib/aws/clients.js');
  const service = await import('../functions/bank/service.js');
  const { createRepository } = await import('../functions/lib/db/repository.js');
  const { bankNotificationEntity, bankNotificationHistoryEntity } = await import('../functions/bank/entities.js');
  const { NotifyStatus, PushStatus } = await import('../shared/enums.js');
  const { delivering, settledAt } = await import('./measuredNotifier.js');

  /**
   * Whether a notification's webhook delivery ended delivered: the one place that reads its status
   * fields. pushed_webhook_at is set with the 2xx; status_webhook is the push status (Pushed) and
   * notify_webhook the outcome (Success).
   */
  const endedDelivered = (n: Notification) =>
    n.pushed_webhook_at !== null &&
    n.status_webhook === PushStatus.values.Pushed &&
    n.notify_webhook === NotifyStatus.values.Success;

  // --- DynamoDB units, split between deliveries (inside a notifier invocation) and the rest --------
  const units = { delivery: { read: 0, write: 0 }, ingest: { read: 0, write: 0 } };
  let counting = false;
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const side = delivering.getStore() ? units.delivery : units.ingest;
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const list = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as { CapacityUnits?: number }[];
      const sum = list.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
      if (!counting) return out;
      if (isReadCommand(context.commandName)) side.read += sum;
      else side.write += sum;
      return out;
    },
    { step: 'initialize', name: 'benchCapacity' },
  );

  // --- raw baseline: the same fauxqs, a plain queue --------------------------------------------------
  const rawUrl = (
    await sqs.send(new CreateQueueCommand({ QueueName: 'bench-raw', Attributes: { VisibilityTimeout: '60' } }))
  ).QueueUrl as string;
  // The size of a delivery message with a notification id of the run's size.
  const rawBody = JSON.stringify({
    kind: 'bank_notification',
    notification_id: COUNT,
    channel: 1,
    attempt: 1,
  });
  let sent = 0;
  const sendStarted = performance.now();
  await Promise.all(
    Array.from({ length: ACCOUNTS }, async () => {
      while (sent < COUNT) {
        sent++;
        await sqsClient().send(
          new SendMessageBatchCommand({ QueueUrl: rawUrl, Entries: [{ Id: '0', MessageBody: rawBody }] }),
        );
      }
    }),
  );
  const rawSendMs = performance.now() - sendStarted;
  let received = 0;
  let lastDeleted = 0;
  const receiveStarted = performance.now();
  await Promise.all(
    Array.from({ length: NOTIFIER.concurrency }, async () => {
      while (received < COUNT) {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: rawUrl,
            MaxNumberOfMessages: Math.min(Math.max(NOTIFIER.batchSize, 1), 10),
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        const messages = out.Messages ?? [];
        if (!messages.length) continue;
        received += messages.length;
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: rawUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
        lastDeleted = performance.now();
      }
    }),
  );
  // To the last delete: not the idle long polls of the workers that found the queue empty after it.
  const rawReceiveMs = lastDeleted - receiveStarted;
  const raw = {
    messages: COUNT,
    body_bytes: Buffer.byteLength(rawBody),
    send_msgs_per_s: perSecond(COUNT, rawSendMs),
    receive_delete_msgs_per_s: perSecond(COUNT, rawReceiveMs),
  };
  console.log(
    `raw queue: sent ${raw.send_msgs_per_s}/s (${ACCOUNTS} senders, one a call), received+deleted ${raw.receive_delete_msgs_per_s}/s (batch ${NOTIFIER.batchSize}, ${NOTIFIER.concurrency} at once)`,
  );

  // --- accounts: KBZ on the sandbox bank, sub-accounts known, not polled, a hook each ---------------
  const accounts: { id: number; key: string; no: string; hook: string }[] = [];
  const today = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < ACCOUNTS; i++) {
    const a = await service.createAccount({
      bank_name: 1,
      user: `delivery${String(i).padStart(3, '0')}`,
      pwd: 'sandbox123',
    });
    const key = `bench-${i}-${randomUUID()}`;
    const hook = `bench-${i}`;
    await service.updateAccount(a.id, { webhook: `${receiver}/hooks/${hook}`, api_key: key, status: 99 });
    // A poll the account's creation scheduled may hold its lease a moment: the refresh is then skipped.
    let sub: { no: string } | undefined;
    for (let attempt = 0; !sub && attempt < 10; attempt++) {
      if (attempt) await sleep(500);
      await service.refreshAccount(a.id);
      sub = (await service.accountSubs(a.id))[0];
    }
    if (!sub) throw new Error(`account ${a.id} has no sub-account after its refresh`);
    accounts.push({ id: a.id, key, no: sub.no, hook });
  }
  const notifications = createRepository(bankNotificationEntity);
  if ((await notifications.all()).length) throw new Error('the setup created bank notifications of its own');

  // --- the notify queue's depth, sampled each second --------------------------------------------------
  let maxDepth = 0;
  const depthTimer = setInterval(() => {
    void sqs
      .send(
        new GetQueueAttributesCommand({
          QueueUrl: stack.env.NOTIFY_QUEUE_URL,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      )
      .then((out) => {
        const a = out.Attributes ?? {};
        maxDepth = Math.max(
          maxDepth,
          Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0),
        );
      })
      .catch(() => undefined);
  }, 1000);

  // --- the statements, pushed --------------------------------------------------------------------
  interface Push {
    /** Request round trips of the inbound webhook, ms. */
    requestMs: number[];
    /** Calls answered other than 200 (retried): status → count. */
    refused: Record<string, number>;
  }
  async function push(tag: string, count: number, rate: number | undefined): Promise<Push> {
    const out: Push = { requestMs: [], refused: {} };
    const t0 = performance.now();
    await Promise.all(
      accounts.map(async (account, k) => {
        for (let i = k; i < count; i += accounts.length) {
          if (rate) {
            const wait = t0 + (i / rate) * 1000 - performance.now();
            if (wait > 0) await sleep(wait);
          }
          const body = JSON.stringify({
            bank: 1,
            type: 1,
            content: {
              bank: 1,
              account: account.no,
              sender: 'Bench Sender',
              remark: `${tag} ${i}`,
              send_date: today,
              send_time: '',
              amount: (1 + (i % 5000) / 100).toFixed(2),
            },
          });
          for (let attempt = 1; ; attempt++) {
            const t = performance.now();
            const res = await fetch(`${stack.url}/webhook/bank`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': account.key },
              body,
            });
            const reply = (await res.json()) as { data?: { recorded?: boolean } };
            if (res.status === 200 && reply.data?.recorded) {
              out.requestMs.push(performance.now() - t);
              break;
            }
            out.refused[res.status] = (out.refused[res.status] ?? 0) + 1;
            if (attempt >= 5) throw new Error(`${tag} ${i}: ${res.status} ${JSON.stringify(reply)}`);
            await sleep(200 * attempt);
          }
        }
      }),
    );
    return out;
  }

  /** Waits until `total` notifications have settled (the notifier returned), or nothing moved for STALL_MS. */
  async function settled(total: number): Promise<boolean> {
    let last = settledAt.size;
    let movedAt = Date.now();
    while (settledAt.size < total) {
      await sleep(100);
      if (settledAt.size !== last) {
        last = settledAt.size;
        movedAt = Date.now();
      } else if (Date.now() - movedAt > STALL_MS) return false;
    }
    return true;
  }

  async function phase(tag: 'burst' | 'paced', count: number, rate: number | undefined, before: number) {
    units.delivery = { read: 0, write: 0 };
    units.ingest = { read: 0, write: 0 };
    maxDepth = 0;
    counting = true;
    const started = Date.now();
    const pushed = await push(tag, count, rate);
    const pushedAt = Date.now();
    const complete = await settled(before + count);
    counting = false;
    console.log(
      `${tag}: ${count} pushed in ${((pushedAt - started) / 1000).toFixed(1)} s, ${complete ? 'all settled' : 'STALLED'} after ${((Date.now() - started) / 1000).toFixed(1)} s; load ${load()}`,
    );
    return { started, pushed, complete, units: structuredClone(units), maxDepth };
  }

  const burst = await phase('burst', COUNT, undefined, 0);
  // The burst's delivery rate, from its settle times (the receiver is read once at the end).
  const burstRate = COUNT / ((Math.max(...settledAt.values()) - burst.started) / 1000);
  const pacedRate = PACED_RATE ?? +(burstRate * PACED_LOAD).toFixed(1);
  if (PACED_COUNT > 0) console.log(`paced: ${PACED_COUNT} statements at ${pacedRate}/s`);
  const paced = PACED_COUNT > 0 ? await phase('paced', PACED_COUNT, pacedRate, COUNT) : undefined;
  clearInterval(depthTimer);

  // --- what happened: the receiver's requests, the notifications, the history ------------------------
  const requests: (ReceivedDelivery & { notification: number })[] = [];
  for (const a of accounts) {
    const got = (await (await fetch(`${receiver}/sandbox/hooks/${a.hook}/requests`)).json()) as ReceivedDelivery[];
    for (const r of got)
      requests.push({ ...r, notification: Number(/^msg_(\d+)_/.exec(r.headers['webhook-id'] ?? '')?.[1] ?? NaN) });
  }
  const all = await notifications.all();
  const history = await createRepository(bankNotificationHistoryEntity).all();
  const historyOf = new Map<number, number>();
  for (const h of history) historyOf.set(h.notification_id, (historyOf.get(h.notification_id) ?? 0) + 1);
  const receivedOf = new Map<number, ReceivedDelivery[]>();
  for (const r of requests) receivedOf.set(r.notification, [...(receivedOf.get(r.notification) ?? []), r]);

  const expected = COUNT + (paced ? PACED_COUNT : 0);
  const remarkOf = (n: Notification) => (n.context.kind === 'statement' ? n.context.remark : '');
  const isBench = (n: Notification) => /^(burst|paced) \d+$/.test(remarkOf(n));
  const allIds = new Set(all.map((n) => n.id));
  const benchRows = all.filter(isBench);
  const benchIds = new Set(benchRows.map((n) => n.id));
  // Anything else the stack notified about the bench's accounts meanwhile: named, not counted.
  const others = all.filter((n) => !isBench(n));
  const benchReceived = [...receivedOf.entries()].filter(([id]) => benchIds.has(id));
  const checks = {
    expected,
    notifications: benchRows.length,
    received_requests: benchReceived.reduce((sum, [, r]) => sum + r.length, 0),
    received_distinct: benchReceived.length,
    received_twice: benchReceived.filter(([, r]) => r.length > 1).length,
    received_unknown: [...receivedOf.keys()].filter((id) => !allIds.has(id)).length,
    not_2xx_answers: requests.filter((r) => r.status >= 300).length,
    ended_delivered: benchRows.filter(endedDelivered).length,
    notifications_with_one_history_row: benchRows.filter((n) => historyOf.get(n.id) === 1).length,
    other_notifications: others.map((n) => ({
      id: n.id,
      account_id: n.account_id,
      category: n.category,
      kind: n.context.kind,
      remark: remarkOf(n),
      created_at: new Date(n.created_at).toISOString(),
      received: receivedOf.get(n.id)?.length ?? 0,
    })),
  };
  const correct =
    checks.notifications === expected &&
    checks.received_requests === expected &&
    checks.received_distinct === expected &&
    checks.received_twice === 0 &&
    checks.received_unknown === 0 &&
    checks.ended_delivered === expected &&
    checks.notifications_with_one_history_row === expected;

  function figures(tag: string, count: number, p: Awaited<ReturnType<typeof phase>>) {
    const mine = all.filter((n) => remarkOf(n).startsWith(`${tag} `));
    const mineIds = new Set(mine.map((n) => n.id));
    const toReceived: number[] = [];
    const toSettled: number[] = [];
    let firstStatement = Number.POSITIVE_INFINITY;
    let lastStatement = 0;
    let lastReceived = 0;
    for (const n of mine) {
      firstStatement = Math.min(firstStatement, n.created_at);
      lastStatement = Math.max(lastStatement, n.created_at);
      const r = receivedOf.get(n.id)?.[0];
      if (r) {
        toReceived.push(r.at - n.created_at);
        lastReceived = Math.max(lastReceived, r.at);
      }
      const s = settledAt.get(n.id);
      if (s !== undefined) toSettled.push(s - n.created_at);
    }
    const deliveries = toReceived.length;
    const deliveriesPerS = perSecond(deliveries, lastReceived - firstStatement);
    // The backlog's tail: deliveries after the last statement was recorded, the notifier alone.
    const drained = requests.filter((r) => r.at > lastStatement && r.at <= lastReceived && mineIds.has(r.notification));
    return {
      statements: mine.length,
      of: count,
      complete: p.complete,
      statements_per_s: perSecond(mine.length, lastStatement - firstStatement),
      inbound_request_ms: spread(p.pushed.requestMs),
      inbound_refused: p.pushed.refused,
      deliveries,
      deliveries_per_s: deliveriesPerS,
      deliveries_vs_raw_receive: +(deliveriesPerS / raw.receive_delete_msgs_per_s).toFixed(3),
      after_last_statement: {
        deliveries: drained.length,
        deliveries_per_s: perSecond(drained.length, lastReceived - lastStatement),
      },
      statement_to_received_ms: spread(toReceived),
      statement_to_settled_ms: spread(toSettled),
      max_notify_queue_depth: p.maxDepth,
      rcu_per_delivery: +(p.units.delivery.read / Math.max(1, deliveries)).toFixed(2),
      wcu_per_delivery: +(p.units.delivery.write / Math.max(1, deliveries)).toFixed(2),
      rcu_per_inbound_statement: +(p.units.ingest.read / Math.max(1, mine.length)).toFixed(2),
      wcu_per_inbound_statement: +(p.units.ingest.write / Math.max(1, mine.length)).toFixed(2),
    };
  }

  const result = {
    at: startedAt.toISOString(),
    cores: cpus().length,
    accounts: ACCOUNTS,
    notifier: NOTIFIER,
    inbound_rate_limit_per_min: Number(process.env.BANK_WEBHOOK_RATE_LIMIT),
    raw,
    burst: figures('burst', COUNT, burst),
    paced: paced ? { rate_per_s: pacedRate, ...figures('paced', PACED_COUNT, paced) } : null,
    target_p95_ms: TARGET_P95_MS,
    checks,
    correct,
    load_average_end: load(),
  };
  console.log(JSON.stringify(result, null, 2));
  const p95 = (result.paced ?? result.burst).statement_to_received_ms.p95;
  console.log(
    `deliveries/s ${result.burst.deliveries_per_s} (raw queue ${raw.receive_delete_msgs_per_s}/s: ${result.burst.deliveries_vs_raw_receive}x); p95 statement→delivery ${p95} ms ${result.paced ? 'paced' : 'burst'} (target < ${TARGET_P95_MS}); ${correct ? 'every notification delivered once' : 'CHECKS FAILED'}`,
  );
  const out = join(import.meta.dirname ?? '.', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'bankDelivery.json'), JSON.stringify(result, null, 2));
  if (!correct) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  sqs.destroy();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = exitCode;
