// The Bot API client and the message rules against the sandbox Bot API (a real HTTP server with
// Telegram's shapes and failures), started here on a free port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxTelegramHandle, startSandboxTelegram } from '../../../scripts/sandbox/telegram/server.js';
import { TELEGRAM_MESSAGE_LIMIT } from '../../../shared/schemas/telegram.js';
import { type Line, MAX_PARTS, renderLine, toMessageParts } from './formatMessage.js';
import { runUntil } from '../../lib/invocationDeadline.js';
import { AFTER_WAIT_MS, sendMessage, TelegramUnavailableError } from './telegramClient.js';

const TOKEN = '123456789:AAF-sandbox_token_for_tests_0123456789';
let sandbox: SandboxTelegramHandle;
let chatSeq = 1000;
const newChat = () => String(++chatSeq);

async function control(path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
const received = async (chatId: string) =>
  (await control(`messages?chat_id=${chatId}`)).messages as { status: number; text: string; at: number }[];
const send = (chatId: string, html: string, token = TOKEN) => sendMessage({ token, chatId, html, apiUrl: sandbox.url });

beforeAll(async () => {
  sandbox = await startSandboxTelegram({ port: 0 });
  process.env.ALLOWED_PRIVATE_HOSTS = new URL(sandbox.url).host;
});
afterAll(() => sandbox.stop());

describe('sendMessage against the sandbox Bot API', () => {
  it('sends an HTML message and returns Telegram’s answer with the message', async () => {
    const chat = newChat();
    const answer = await send(chat, renderLine([{ text: 'Operation 7', bold: true }, ' done']));
    expect(answer).toMatchObject({
      ok: true,
      result: { message_id: 1, chat: { id: Number(chat) }, text: 'Operation 7 done' },
    });
    expect(await received(chat)).toMatchObject([{ status: 200, text: '<b>Operation 7</b> done' }]);
  });

  it('waits out a 429 for its retry_after and then delivers', async () => {
    const chat = newChat();
    await control('rate-limit', { count: 1, retry_after: 1, chat_id: chat });
    const started = Date.now();
    const answer = await send(chat, 'after the flood wait');
    expect(answer.ok).toBe(true);
    const attempts = await received(chat);
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('gets through after one 429 even when the timer fires a little early', async () => {
    const chat = newChat();
    await control('rate-limit', { count: 1, retry_after: 1, chat_id: chat });
    // A timer on libuv's coarse clock can end a few ms before the wall clock has moved the whole wait.
    const earlySleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms - 20));
    const answer = await sendMessage({ token: TOKEN, chatId: chat, html: 'x', apiUrl: sandbox.url, sleep: earlySleep });
    expect(answer.ok).toBe(true);
    expect((await received(chat)).map((a) => a.status)).toEqual([429, 200]);
  });

  it('gives back a 429 whose retry_after is longer than it may wait, without waiting', async () => {
    const chat = newChat();
    await control('rate-limit', { count: 1, retry_after: 120, chat_id: chat });
    const started = Date.now();
    const answer = await sendMessage({
      token: TOKEN,
      chatId: chat,
      html: 'x',
      apiUrl: sandbox.url,
      maxWaitSeconds: 30,
    });
    expect(answer).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 120 } });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives back a 429 when waiting it out would leave the queue invocation no time to send again', async () => {
    const chat = newChat();
    await control('rate-limit', { count: 1, retry_after: 2, chat_id: chat });
    const started = Date.now();
    // 10 s left: a 2 s wait would leave less than the send after it needs (AFTER_WAIT_MS).
    const answer = await runUntil(Date.now() + 10_000, () => send(chat, 'late in the batch'));
    expect(answer).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 2 } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await received(chat)).map((a) => a.status)).toEqual([429]);

    // With the time, the same wait is honoured in place.
    await control('rate-limit', { count: 1, retry_after: 1, chat_id: chat });
    const later = await runUntil(Date.now() + AFTER_WAIT_MS + 5_000, () => send(chat, 'with time to spare'));
    expect(later.ok).toBe(true);
  });

  it('returns the refusals as Telegram words them: blocked bot, unknown chat, bad token', async () => {
    const blocked = newChat();
    const missing = newChat();
    await control(`chats/${blocked}`, { state: 'blocked' });
    await control(`chats/${missing}`, { state: 'missing' });
    expect(await send(blocked, 'x')).toEqual({
      ok: false,
      error_code: 403,
      description: 'Forbidden: bot was blocked by the user',
    });
    expect(await send(missing, 'x')).toMatchObject({
      ok: false,
      error_code: 400,
      description: 'Bad Request: chat not found',
    });
    expect(await send(newChat(), 'x', '42:not-a-real-token')).toMatchObject({
      ok: false,
      error_code: 401,
      description: 'Unauthorized',
    });
  });

  it('delivers user text with <script> escaped; unescaped, Telegram would refuse it', async () => {
    const chat = newChat();
    const evil = '<script>alert("x")</script> & co';
    const answer = await send(chat, renderLine([{ text: 'Site ', bold: true }, evil]));
    expect(answer).toMatchObject({ ok: true, result: { text: `Site ${evil}` } });
    const [sent] = await received(chat);
    expect(sent.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(sent.text).not.toContain('<script>');
    expect(await send(newChat(), `Site ${evil}`)).toMatchObject({ ok: false, error_code: 400 });
  });

  it('splits a message over 4,096 characters at line ends into parts Telegram accepts', async () => {
    const chat = newChat();
    const lines: Line[] = Array.from({ length: 120 }, (_, i) => [`line ${i} <&> `, 'x'.repeat(60)]);
    const parts = toMessageParts(lines);
    expect(parts.length).toBeGreaterThan(1);
    for (const html of parts) {
      expect(html.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
      expect((await send(chat, html)).ok).toBe(true);
    }
    const texts = (await received(chat)).map((m) => m.text).join('\n');
    // Every line arrived, whole and in order.
    expect(texts.split('\n')).toEqual(lines.map(renderLine));
  });

  it('cuts a single line longer than the limit with an ellipsis, and summarises what does not fit in the last part', async () => {
    const chat = newChat();
    const [cut] = toMessageParts([['é'.repeat(5000)]]);
    expect(cut.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
    expect(cut.endsWith('…')).toBe(true);
    expect((await send(chat, cut)).ok).toBe(true);

    const many: Line[] = Array.from({ length: 2000 }, (_, i) => [`failed subtask ${i}: `, 'y'.repeat(40)]);
    const parts = toMessageParts(many);
    expect(parts).toHaveLength(MAX_PARTS);
    expect(parts[MAX_PARTS - 1]).toMatch(/… \d+ more line\(s\) not shown/);
    for (const html of parts) expect((await send(chat, html)).ok).toBe(true);
  });

  it('refuses a Bot API address on a private network unless it is allow-listed, and never names the token', async () => {
    const allowed = process.env.ALLOWED_PRIVATE_HOSTS;
    process.env.ALLOWED_PRIVATE_HOSTS = '';
    try {
      const refused = await send(newChat(), 'x').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TelegramUnavailableError);
      expect((refused as Error).message).toMatch(/loopback/);
      expect((refused as Error).message).not.toContain(TOKEN.split(':')[1]);
    } finally {
      process.env.ALLOWED_PRIVATE_HOSTS = allowed;
    }
  });
});
