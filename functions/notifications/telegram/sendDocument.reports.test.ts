// sendDocument (issue 46: a report's CSV and PDF) against the sandbox Bot API: a multipart upload
// through the same guarded client as sendMessage, recorded by the sandbox with its name, type,
// size, digest and caption, and its bytes served back as sent.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxTelegramHandle, startSandboxTelegram } from '../../../scripts/sandbox/telegram/server.js';
import { sendDocument, sendMessage } from './telegramClient.js';

const TOKEN = '123456789:AAF-sandbox_token_for_tests_0123456789';
let sandbox: SandboxTelegramHandle;
let chatSeq = 5000;
const newChat = () => String(++chatSeq);
const get = async (path: string) => (await fetch(`${sandbox.url}/sandbox/${path}`)).json();

beforeAll(async () => {
  sandbox = await startSandboxTelegram({ port: 0 });
  process.env.ALLOWED_PRIVATE_HOSTS = new URL(sandbox.url).host;
});
afterAll(() => sandbox.stop());

describe('sendDocument against the sandbox Bot API', () => {
  it('uploads a file with its caption, and the sandbox records and serves exactly those bytes', async () => {
    const chat = newChat();
    const bytes = new TextEncoder().encode('site,runs\nLucky 4D,120\n');
    const answer = await sendDocument({
      token: TOKEN,
      chatId: chat,
      apiUrl: sandbox.url,
      fileName: 'patrol-week-2026-11-30.csv',
      mimeType: 'text/csv',
      bytes,
      caption: '<b>Week</b> 2026-11-30',
    });
    expect(answer).toMatchObject({
      ok: true,
      result: {
        message_id: 1,
        caption: 'Week 2026-11-30',
        document: { file_name: 'patrol-week-2026-11-30.csv', mime_type: 'text/csv', file_size: bytes.length },
      },
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await get(`documents?chat_id=${chat}`)).documents).toEqual([
      {
        chat_id: chat,
        message_id: 1,
        caption: 'Week 2026-11-30',
        file_name: 'patrol-week-2026-11-30.csv',
        mime_type: 'text/csv',
        file_size: bytes.length,
        sha256,
      },
    ]);
    const [request] = (await get(`messages?chat_id=${chat}`)).messages;
    expect(request).toMatchObject({ method: 'sendDocument', status: 200, text: '<b>Week</b> 2026-11-30' });
    expect(request.document).toMatchObject({ sha256, file_size: bytes.length });
    const served = await fetch(`${sandbox.url}/sandbox/documents/${chat}/1`);
    expect(served.headers.get('content-type')).toBe('text/csv');
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a request without a document, and a blocked chat, as Telegram does', async () => {
    const chat = newChat();
    const form = await fetch(`${sandbox.url}/bot${TOKEN}/sendDocument`, {
      method: 'POST',
      body: (() => {
        const f = new FormData();
        f.set('chat_id', chat);
        f.set('document', 'not a file');
        return f;
      })(),
    });
    expect(await form.json()).toMatchObject({
      ok: false,
      error_code: 400,
      description: 'Bad Request: there is no document in the request',
    });
    await fetch(`${sandbox.url}/sandbox/chats/${chat}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'blocked' }),
    });
    const blocked = await sendDocument({
      token: TOKEN,
      chatId: chat,
      apiUrl: sandbox.url,
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      bytes: new Uint8Array([37, 80, 68, 70]),
    });
    expect(blocked).toMatchObject({ ok: false, error_code: 403 });
  });

  it('keeps sendMessage answering as before, text and all', async () => {
    const chat = newChat();
    const answer = await sendMessage({ token: TOKEN, chatId: chat, html: 'plain', apiUrl: sandbox.url });
    expect(answer).toMatchObject({ ok: true, result: { message_id: 1, text: 'plain' } });
    expect(answer.result).not.toHaveProperty('document');
  });
});
