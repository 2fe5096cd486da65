import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotifyStatus } from '../../shared/enums.js';
import { type LocalStack, startLocalStack } from '../../scripts/local/stack.js';
import { api, login } from '../helpers/api.js';
import { pendingTelegramNotification } from '../helpers/pendingNotification.js';

// Its own stack in this worker process: it is stopped and started again. The local queue loses its
// messages on a restart; a Telegram delivery still Pending must go out after the next start.
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-tg-restart-'));
const ADMIN_PASSWORD = 'tg-restart-pass-1';
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});
const start = () =>
  startLocalStack({ dataDir, port: 0, demo: false, quiet: true, adminPassword: ADMIN_PASSWORD, secondFactor: 'off' });
const CHAT = '-100777000111';

describe('a restart with a Telegram delivery pending', () => {
  it('sends it after the next start, once', async () => {
    stack = await start();
    const token = await login(stack.url, 'admin', ADMIN_PASSWORD);
    const saved = await api(stack.url).put('/api/v1/super/notification/tg', {
      token,
      body: {
        bot_token: '7009009009:AAE-restart_sandbox_token_0123456789',
        check_chat_id: CHAT,
        bank_chat_id: '',
        check_enabled: true,
        bank_enabled: false,
        per_subtask: false,
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // A delivery whose queue message is lost: Pending, never enqueued (as after a crash).
    const pending = await pendingTelegramNotification({ title: 'Lost in the queue', caption: 'restart test' });
    await stack.stop();

    stack = await start();
    const url = stack.sandboxTelegramUrl;
    let messages: { text: string }[] = [];
    for (const end = Date.now() + 20_000; Date.now() < end && !messages.length; ) {
      await new Promise((r) => setTimeout(r, 300));
      messages = (await (await fetch(`${url}/sandbox/messages?chat_id=${CHAT}`)).json()).messages;
    }
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toContain('Lost in the queue');
    const { notificationStore } = await import('../../functions/notifications/store.js');
    const after = await notificationStore().get(pending.id);
    expect(after).toMatchObject({ status_tg: NotifyStatus.values.Success, pushed_tg_at: expect.any(Number) });
  });
});
