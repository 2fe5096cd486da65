import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Bank, BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import { startupEvent } from '../../functions/lib/startupEvent.js';
import { uniqueName } from '../helpers/authKit.js';
import { pendingTelegramNotification } from '../helpers/pendingNotification.js';

// A start's requeues of deliveries still Pending (the local queue keeps nothing across a restart)
// send again what was created before the start began, and leave alone what was created since,
// whose messages went out with it (the demo seeds, the first requests). The handlers run in this
// test process against the stack's table, with the notify queue pointed at a queue of the test's
// own, so the test sees every message they send. (The checks' requeue: engineRecovery.test.ts.)

const stack = inject('stack');
let sqs: SQSClient;
let sinkUrl: string;

type Sent = { kind: string; notification_id: number; channel?: number; attempt?: number };

/** Every message in the sink, of one notification. */
async function sentFor(id: number): Promise<Sent[]> {
  const out: Sent[] = [];
  for (;;) {
    const res = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: sinkUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    if (!res.Messages?.length) return out.filter((m) => m.notification_id === id);
    out.push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}') as Sent));
  }
}

beforeAll(async () => {
  Object.assign(process.env, stack.env);
  sqs = new SQSClient({ region: stack.env.AWS_REGION, endpoint: stack.env.SQS_ENDPOINT });
  sinkUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('test-notify-sink-') }))).QueueUrl!;
  process.env.NOTIFY_QUEUE_URL = sinkUrl;
  (await import('../../functions/lib/aws/clients.js')).resetClients();
});

afterAll(async () => {
  await sqs?.send(new DeleteQueueCommand({ QueueUrl: sinkUrl }));
  sqs?.destroy();
});

describe('a start of the stack', () => {
  it('sends again a Telegram delivery still Pending from before it began, not one from since', async () => {
    const { notificationStore } = await import('../../functions/notifications/store.js');
    const requeue = await import('../../functions/notifications/requeue.js');
    const before = Date.now() - 1;
    const pending = await pendingTelegramNotification({
      title: 'Created after the start began',
      caption: 'startup requeue test',
    });
    try {
      await requeue.handler(startupEvent(before));
      expect(await sentFor(pending.id)).toEqual([]);

      await requeue.handler(startupEvent(Date.now() + 1));
      expect(await sentFor(pending.id)).toEqual([{ kind: 'tg_notification', notification_id: pending.id }]);
    } finally {
      // Nobody delivers it here: it leaves the Pending ones of the shared stack.
      await notificationStore().setTelegram(pending.id, {
        status_tg: NotifyStatus.values.NoNeed,
        pushed_tg_at: null,
        tg_remark: 'startup requeue test',
      });
    }
  });

  it('sends again a bank webhook delivery still Pending from before it began, not one from since', async () => {
    const { bankStore } = await import('../../functions/bank/store.js');
    const { bankNotification } = await import('../../functions/bank/notify.js');
    const requeue = await import('../../functions/bankWebhook/requeueAtStart.js');
    const before = Date.now() - 1;
    const { Pending, NoNeed } = NotifyStatus.values;
    // An account of its own (no such account exists): no other test lists its notifications.
    const accountId = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const created = await bankStore().createNotification(
      bankNotification(
        { id: accountId, bank_name: Bank.values.KBZ, user: 'startup-requeue' },
        { webhook: Pending, tg: NoNeed, row: Pending },
        {
          category: BankNotificationCategory.values.Statement,
          business_id: accountId,
          sub: null,
          context: {
            kind: 'statement',
            bank: Bank.values.KBZ,
            account: '0000111122223333',
            sender: 'U Ba',
            remark: 'startup requeue test',
            send_date: '2026-11-26',
            send_time: '',
            amount: '1000',
            inflow: true,
          },
          created_at: Date.now(),
        },
      ),
    );
    // The delivery it was created with (its follow-up, sent as it was written).
    const first = await sentFor(created.id);
    expect(first).toEqual([expect.objectContaining({ kind: 'bank_notification', notification_id: created.id })]);

    await requeue.handler(startupEvent(before));
    expect(await sentFor(created.id)).toEqual([]);

    await requeue.handler(startupEvent(Date.now() + 1));
    expect(await sentFor(created.id)).toEqual(first);

    // A chain of attempts under way (its third attempt queued when the local queue was lost): it goes
    // on at that attempt, which its delivery runs (a first attempt would be dropped as passed).
    await bankStore().updateNotification(created.id, { webhook_attempt: 3 });
    await requeue.handler(startupEvent(Date.now() + 1));
    expect(await sentFor(created.id)).toEqual([{ ...first[0], attempt: 3 }]);
  });
});
