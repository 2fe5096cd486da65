// The sandbox Telegram Bot API: what Patrol's Telegram client talks to locally, in demos and in
// tests. It answers `sendMessage`, `sendDocument` (multipart uploads: a report's CSV and PDF),
// `editMessageText`, `answerCallbackQuery`, `setWebhook` (and `getMe`, `getWebhookInfo`) at
// `/bot<token>/<method>` with the real Bot API's shapes and failures, keeps each chat's messages
// with their inline keyboards and documents, records every request it received, and
// has switches to make a chat blocked or unknown, revoke a token or throttle with 429 + retry_after.
// Like Telegram, it delivers updates (a user's message to the bot, a button press) to the webhook a
// bot registered, with the secret in X-Telegram-Bot-Api-Secret-Token; its page (GET /) shows the
// chats and can press a message's buttons. Plain node:http; all state lives in memory per server
// instance. The contract is in docs/notifications.md.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BOT_TOKEN_PATTERN, TELEGRAM_MESSAGE_LIMIT } from '../../../shared/schemas/telegram.js';
import { listenSandbox } from '../serveSandbox.js';
import { parseTelegramHtml } from './parseTelegramHtml.js';

export interface SandboxTelegramOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface SandboxTelegramHandle {
  /** Base URL, e.g. http://127.0.0.1:41234: the Bot API's root (TELEGRAM_API_URL). */
  url: string;
  stop(): Promise<void>;
}

/** What a chat does with a bot's message: 'missing' answers 400 chat not found, 'blocked' 403. */
export type SandboxChatState = 'ok' | 'blocked' | 'missing';

/** One request the sandbox received (refused ones too), as GET /sandbox/messages lists them. */
export interface ReceivedRequest {
  seq: number;
  at: number;
  method: string;
  /** The bot's numeric id (the token's public part); the key is never recorded. */
  bot_id: string;
  chat_id: string | null;
  /** The text as sent (HTML source when parse_mode is HTML). */
  text: string | null;
  parse_mode: string | null;
  status: number;
  answer: Record<string, unknown>;
  /** sendDocument's file (its caption is `text`); absent on every other method. */
  document?: SandboxDocumentInfo;
}

/** A document a bot uploaded, as recorded: the bytes themselves at GET /sandbox/documents/<chat>/<message>. */
export interface SandboxDocumentInfo {
  file_name: string;
  mime_type: string;
  file_size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** An uploaded file as the parameters carry it. */
interface Upload {
  name: string;
  type: string;
  bytes: Buffer;
}
const isUpload = (v: unknown): v is Upload =>
  typeof v === 'object' && v !== null && Buffer.isBuffer((v as Upload).bytes);
/** Telegram's own limits: a bot uploads at most 50 MB; a caption is at most 1,024 characters. */
const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;
const CAPTION_LIMIT = 1024;

const documentInfo = (u: Upload): SandboxDocumentInfo => ({
  file_name: u.name,
  mime_type: u.type || 'application/octet-stream',
  file_size: u.bytes.length,
  sha256: createHash('sha256').update(u.bytes).digest('hex'),
});

const SANDBOX_BOT = { is_bot: true, first_name: 'Patrol Sandbox Bot', username: 'patrol_sandbox_bot' };

/** A message the sandbox keeps, as a chat shows it: its text, its buttons and what it replies to. */
export interface SandboxMessage {
  message_id: number;
  chat_id: string;
  bot_id: string;
  /** The visible text (HTML parsed). */
  text: string;
  /** The HTML as sent or last edited. */
  html: string;
  reply_markup: InlineKeyboard | null;
  reply_to_message_id: number | null;
  silent: boolean;
  edits: number;
  date: number;
  /** A sendDocument's file; its caption is `text`. */
  document?: SandboxDocumentInfo;
}

interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}
interface InlineKeyboard {
  inline_keyboard: InlineButton[][];
}

/** A user of the sandbox, as Telegram's `User` (who sends /start or presses a button). */
export interface SandboxUser {
  id: number;
  username?: string;
  first_name?: string;
}
const KEEP_REQUESTS = 2_000;

function chatOf(chatId: string) {
  if (chatId.startsWith('@'))
    return {
      id: -1_000_000_000_000 - chatId.length,
      title: chatId.slice(1),
      username: chatId.slice(1),
      type: 'channel',
    };
  const id = Number(chatId);
  if (id > 0) return { id, first_name: 'Sandbox', type: 'private' };
  if (chatId.startsWith('-100')) return { id, title: `Sandbox group ${chatId}`, type: 'supergroup' };
  return { id, title: `Sandbox group ${chatId}`, type: 'group' };
}

async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new Error('too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The Bot API takes parameters as a query string, urlencoded/multipart form or JSON; the sandbox takes all of them. */
async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (req.method !== 'POST') return params;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('multipart/form-data')) {
    // The platform's own multipart parser (undici's), as a Request over the bytes received.
    const bytes = await readBytes(req, DOCUMENT_MAX_BYTES + 64 * 1024);
    const form = await new Request('http://sandbox/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(bytes),
    }).formData();
    for (const [key, value] of form.entries())
      params[key] =
        typeof value === 'string'
          ? value
          : ({ name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) } satisfies Upload);
    return params;
  }
  const raw = (await readBytes(req, 1_000_000)).toString('utf8');
  if (!raw) return params;
  if (type.includes('application/json')) {
    const json = JSON.parse(raw) as unknown;
    if (json && typeof json === 'object') Object.assign(params, json);
  } else Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
  return params;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const failure = (error_code: number, description: string, parameters?: Record<string, number>) => ({
  ok: false,
  error_code,
  description,
  ...(parameters ? { parameters } : {}),
});

/** reply_markup as the Bot API takes it (an object, or its JSON in a form); 'bad' when it is not one. */
function keyboardOf(value: unknown): InlineKeyboard | null | 'bad' {
  if (value === undefined || value === null || value === '') return null;
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return 'bad';
    }
  }
  const rows = (v as { inline_keyboard?: unknown }).inline_keyboard;
  if (!Array.isArray(rows)) return 'bad';
  for (const row of rows) {
    if (!Array.isArray(row)) return 'bad';
    for (const b of row as InlineButton[]) {
      if (typeof b?.text !== 'string' || !b.text) return 'bad';
      if (b.callback_data === undefined && b.url === undefined) return 'bad';
      if (b.callback_data !== undefined && Buffer.byteLength(String(b.callback_data)) > 64) return 'bad';
    }
  }
  return { inline_keyboard: rows as InlineButton[][] };
}

/** GET /: every chat's messages with their buttons; a press is sent as the user given at the top. */
const SANDBOX_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox Telegram</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;background:#e7ebf0;color:#111}
header{background:#2b5278;color:#fff;padding:10px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header input{width:120px}
main{display:flex;gap:16px;padding:16px;flex-wrap:wrap;align-items:flex-start}
section{background:#fff;border-radius:8px;padding:12px;width:420px;box-shadow:0 1px 2px #0002}
h2{font-size:15px;margin:0 0 8px}
.msg{background:#eef6ff;border-radius:8px;padding:8px;margin:8px 0;white-space:pre-wrap}
.reply{margin-left:24px;background:#f3f3f3}
.meta{color:#667;font-size:12px}
.doc{margin:4px 0;font-weight:600}
.kb{display:grid;gap:4px;margin-top:6px}
.kb div{display:flex;gap:4px}
.kb button,.kb a{flex:1;padding:6px;border:0;border-radius:6px;background:#5288c1;color:#fff;cursor:pointer;text-align:center;text-decoration:none;font:inherit}
#notice{min-height:1.4em}
</style></head><body>
<header><b>Sandbox Telegram</b>
<label>Act as Telegram user id <input id="uid" value="7001"></label>
<label>username <input id="uname" value="sandbox_user"></label>
<label>Send to the bot <input id="text" placeholder="/start CODE" style="width:160px"></label><button id="send">Send</button>
<span id="notice" role="status"></span></header>
<main id="chats"></main>
<script>
const $ = (id) => document.getElementById(id);
const user = () => ({ id: Number($('uid').value), username: $('uname').value || undefined, first_name: $('uname').value || 'Sandbox user' });
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
async function press(chat, message, data) {
  const r = await fetch('/sandbox/updates/press', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chat, message_id: message, data, from: user() }) });
  const out = await r.json();
  $('notice').textContent = out.answer ? 'Answer: ' + out.answer.text : 'Webhook answered ' + out.status;
  await load();
}
$('send').onclick = async () => {
  const r = await fetch('/sandbox/updates/message', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: user(), text: $('text').value }) });
  $('notice').textContent = 'Webhook answered ' + (await r.json()).status;
  setTimeout(load, 300);
};
async function load() {
  const { chats } = await (await fetch('/sandbox/chats')).json();
  $('chats').innerHTML = chats.map((c) => '<section><h2>Chat ' + esc(c.chat_id) + '</h2>' + c.messages.map((m) =>
    '<div class="msg' + (m.reply_to_message_id ? ' reply' : '') + '" data-message="' + m.message_id + '">' +
    '<div class="meta">#' + m.message_id + (m.reply_to_message_id ? ' · reply to #' + m.reply_to_message_id : '') +
    (m.edits ? ' · edited ' + m.edits + '×' : '') + (m.silent ? ' · silent' : '') + '</div>' +
    (m.document ? '<div class="doc">📎 <a href="/sandbox/documents/' + encodeURIComponent(c.chat_id) + '/' + m.message_id + '">' + esc(m.document.file_name) + '</a> · ' + esc(m.document.mime_type) + ' · ' + m.document.file_size + ' bytes</div>' : '') + esc(m.text) +
    (m.reply_markup ? '<div class="kb">' + m.reply_markup.inline_keyboard.map((row) => '<div>' + row.map((b) => b.url
      ? '<a href="' + esc(b.url) + '" target="_blank" rel="noopener">' + esc(b.text) + '</a>'
      : '<button data-chat="' + esc(c.chat_id) + '" data-id="' + m.message_id + '" data-data="' + esc(b.callback_data) + '">' + esc(b.text) + '</button>').join('') + '</div>').join('') + '</div>' : '') +
    '</div>').join('') + '</section>').join('') || '<p>No messages yet.</p>';
  for (const b of document.querySelectorAll('.kb button')) b.onclick = () => press(b.dataset.chat, Number(b.dataset.id), b.dataset.data);
}
load();
setInterval(load, 3000);
</script></body></html>`;

export async function startSandboxTelegram(opts: SandboxTelegramOptions): Promise<SandboxTelegramHandle> {
  const chats = new Map<string, SandboxChatState>();
  const revoked = new Set<string>();
  const received: ReceivedRequest[] = [];
  const messageIds = new Map<string, number>();
  /** Forced 429s still to answer, optionally for one chat only. */
  let throttle: { remaining: number; retryAfter: number; chatId: string | null } = {
    remaining: 0,
    retryAfter: 0,
    chatId: null,
  };
  /** After a 429, the chat answers 429 again until this moment, as Telegram's flood control does. */
  const floodUntil = new Map<string, number>();
  let seq = 0;
  /** Each chat's messages by id. */
  const messages = new Map<string, Map<number, SandboxMessage>>();
  /** The bytes of each document message, by `${chat}/${message}`. */
  const documentBytes = new Map<string, Upload>();
  /** Where each bot (by id) wants its updates, and the secret to send along. */
  const webhooks = new Map<string, { url: string; secret: string | null }>();
  /** answerCallbackQuery calls, by callback query id. */
  const callbackAnswers = new Map<string, { text: string | null; show_alert: boolean }>();
  let updateId = 0;
  let callbackSeq = 0;

  function record(entry: Omit<ReceivedRequest, 'seq' | 'at'>): void {
    received.push({ seq: ++seq, at: Date.now(), ...entry });
    if (received.length > KEEP_REQUESTS) received.splice(0, received.length - KEEP_REQUESTS);
  }

  /** Answers one Bot API method call: [status, body]. */
  function botMethod(
    token: string,
    method: string,
    params: Record<string, unknown>,
  ): [number, Record<string, unknown>] {
    if (!BOT_TOKEN_PATTERN.test(token) || revoked.has(token)) return [401, failure(401, 'Unauthorized')];
    const botId = Number(token.split(':')[0]);
    if (method === 'getMe') return [200, { ok: true, result: { id: botId, ...SANDBOX_BOT } }];
    if (method === 'setWebhook') {
      const url = typeof params.url === 'string' ? params.url : '';
      if (!url) {
        webhooks.delete(String(botId));
        return [200, { ok: true, result: true, description: 'Webhook was deleted' }];
      }
      if (!/^https?:\/\//.test(url))
        return [400, failure(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook')];
      const secret = params.secret_token === undefined ? null : String(params.secret_token);
      if (secret !== null && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
        return [400, failure(400, 'Bad Request: secret token contains unallowed characters')];
      webhooks.set(String(botId), { url, secret });
      return [200, { ok: true, result: true, description: 'Webhook was set' }];
    }
    if (method === 'deleteWebhook') {
      webhooks.delete(String(botId));
      return [200, { ok: true, result: true, description: 'Webhook was deleted' }];
    }
    if (method === 'getWebhookInfo') {
      const hook = webhooks.get(String(botId));
      return [
        200,
        { ok: true, result: { url: hook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 } },
      ];
    }
    if (method === 'answerCallbackQuery') {
      const id = String(params.callback_query_id ?? '');
      if (!id)
        return [400, failure(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid')];
      callbackAnswers.set(id, {
        text: typeof params.text === 'string' ? params.text : null,
        show_alert: params.show_alert === true || params.show_alert === 'true',
      });
      return [200, { ok: true, result: true }];
    }
    if (method !== 'sendMessage' && method !== 'editMessageText' && method !== 'sendDocument')
      return [404, failure(404, 'Not Found')];

    const chatId = params.chat_id === undefined || params.chat_id === '' ? null : String(params.chat_id);
    if (!chatId) return [400, failure(400, 'Bad Request: chat_id is empty')];
    const now = Date.now();
    const flood = floodUntil.get(chatId) ?? 0;
    if (flood > now) {
      const wait = Math.ceil((flood - now) / 1000);
      return [429, failure(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait })];
    }
    if (throttle.remaining > 0 && (throttle.chatId === null || throttle.chatId === chatId)) {
      throttle.remaining--;
      floodUntil.set(chatId, now + throttle.retryAfter * 1000);
      return [
        429,
        failure(429, `Too Many Requests: retry after ${throttle.retryAfter}`, { retry_after: throttle.retryAfter }),
      ];
    }
    const state = chats.get(chatId) ?? 'ok';
    if (state === 'missing') return [400, failure(400, 'Bad Request: chat not found')];
    if (state === 'blocked')
      return [
        403,
        failure(
          403,
          Number(chatId) > 0
            ? 'Forbidden: bot was blocked by the user'
            : 'Forbidden: bot was kicked from the group chat',
        ),
      ];
    const isDocument = method === 'sendDocument';
    const source =
      typeof params[isDocument ? 'caption' : 'text'] === 'string'
        ? String(params[isDocument ? 'caption' : 'text'])
        : '';
    let text = source;
    if (String(params.parse_mode ?? '').toUpperCase() === 'HTML') {
      const parsed = parseTelegramHtml(source);
      if (!parsed.ok) return [400, failure(400, parsed.description)];
      text = parsed.text;
    }
    const upload = isDocument ? params.document : undefined;
    if (isDocument) {
      // Telegram's answers: a missing or text-only document is "there is no document in the request".
      if (!isUpload(upload)) return [400, failure(400, 'Bad Request: there is no document in the request')];
      if (upload.bytes.length === 0) return [400, failure(400, 'Bad Request: file must be non-empty')];
      if (text.length > CAPTION_LIMIT) return [400, failure(400, 'Bad Request: message caption is too long')];
    } else if (!text.trim()) return [400, failure(400, 'Bad Request: message text is empty')];
    if (text.length > TELEGRAM_MESSAGE_LIMIT) return [400, failure(400, 'Bad Request: message is too long')];
    const markup = keyboardOf(params.reply_markup);
    if (markup === 'bad') return [400, failure(400, "Bad Request: can't parse reply keyboard markup JSON object")];
    const chatMessages = messages.get(chatId) ?? new Map<number, SandboxMessage>();
    messages.set(chatId, chatMessages);
    if (method === 'editMessageText') {
      const existing = chatMessages.get(Number(params.message_id));
      if (!existing) return [400, failure(400, 'Bad Request: message to edit not found')];
      if (existing.html === source && JSON.stringify(existing.reply_markup) === JSON.stringify(markup))
        return [
          400,
          failure(
            400,
            'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
          ),
        ];
      Object.assign(existing, { text, html: source, reply_markup: markup, edits: existing.edits + 1 });
      return [200, { ok: true, result: messageResult(existing, botId) }];
    }
    const messageId = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, messageId);
    const replyParams = params.reply_parameters as { message_id?: unknown } | string | undefined;
    const replyTo = Number(
      (typeof replyParams === 'string' ? JSON.parse(replyParams) : replyParams)?.message_id ??
        params.reply_to_message_id ??
        0,
    );
    const stored: SandboxMessage = {
      message_id: messageId,
      chat_id: chatId,
      bot_id: String(botId),
      text,
      html: source,
      reply_markup: markup,
      reply_to_message_id: replyTo || null,
      silent: params.disable_notification === true || params.disable_notification === 'true',
      edits: 0,
      date: Math.floor(now / 1000),
      ...(isUpload(upload) ? { document: documentInfo(upload) } : {}),
    };
    chatMessages.set(messageId, stored);
    if (isUpload(upload)) documentBytes.set(`${chatId}/${messageId}`, upload);
    return [200, { ok: true, result: messageResult(stored, botId) }];
  }

  function messageResult(m: SandboxMessage, botId: number) {
    return {
      message_id: m.message_id,
      from: { id: botId, ...SANDBOX_BOT },
      chat: chatOf(m.chat_id),
      date: m.date,
      ...(m.document
        ? {
            document: {
              file_name: m.document.file_name,
              mime_type: m.document.mime_type,
              file_id: `sandbox-${m.chat_id}-${m.message_id}`,
              file_unique_id: m.document.sha256.slice(0, 16),
              file_size: m.document.file_size,
            },
            ...(m.text ? { caption: m.text } : {}),
          }
        : { text: m.text }),
      ...(m.reply_markup ? { reply_markup: m.reply_markup } : {}),
      ...(m.reply_to_message_id ? { reply_to_message: { message_id: m.reply_to_message_id } } : {}),
    };
  }

  /** Delivers one update to the bot's webhook as Telegram does: POST JSON with the secret header. */
  async function deliver(
    botId: string | undefined,
    update: Record<string, unknown>,
  ): Promise<{ status: number; body: string }> {
    const hook = botId ? webhooks.get(botId) : [...webhooks.values()][0];
    if (!hook) return { status: 0, body: 'no webhook is set' };
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.secret ? { 'x-telegram-bot-api-secret-token': hook.secret } : {}),
        },
        body: JSON.stringify({ update_id: ++updateId, ...update }),
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, body: await res.text() };
    } catch (error) {
      return { status: 0, body: String(error) };
    }
  }

  const userOf = (u: unknown): SandboxUser | undefined => {
    const v = u as Partial<SandboxUser> | undefined;
    if (!v || typeof v.id !== 'number' || !Number.isInteger(v.id)) return undefined;
    return {
      id: v.id,
      ...(v.username ? { username: String(v.username) } : {}),
      first_name: String(v.first_name ?? `User ${v.id}`),
    };
  };

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    if (req.method === 'GET' && (path === '/' || path === '/sandbox')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SANDBOX_PAGE);
      return;
    }
    const chatMessagesPath = path.match(/^\/sandbox\/chats\/([^/]+)\/messages$/);
    if (req.method === 'GET' && chatMessagesPath) {
      const chatId = decodeURIComponent(chatMessagesPath[1]);
      send(res, 200, { messages: [...(messages.get(chatId)?.values() ?? [])] });
      return;
    }
    if (req.method === 'GET' && path === '/sandbox/chats') {
      send(res, 200, {
        chats: [...messages.entries()].map(([chat_id, m]) => ({ chat_id, messages: [...m.values()] })),
      });
      return;
    }
    const documentPath = path.match(/^\/sandbox\/documents\/([^/]+)\/(\d+)$/);
    if (req.method === 'GET' && documentPath) {
      const file = documentBytes.get(`${decodeURIComponent(documentPath[1])}/${documentPath[2]}`);
      if (!file) return send(res, 404, { error: 'no such document' });
      res
        .writeHead(200, {
          'content-type': file.type || 'application/octet-stream',
          'content-disposition': `attachment; filename="${file.name.replace(/["\\]/g, '_')}"`,
        })
        .end(file.bytes);
      return;
    }
    if (req.method === 'GET' && path === '/sandbox/documents') {
      const chatId = url.searchParams.get('chat_id');
      send(res, 200, {
        documents: [...messages.values()]
          .flatMap((m) => [...m.values()])
          .filter((m) => m.document && (chatId === null || m.chat_id === chatId))
          .map((m) => ({ chat_id: m.chat_id, message_id: m.message_id, caption: m.text, ...m.document })),
      });
      return;
    }
    if (req.method === 'GET' && path === '/sandbox/webhooks') {
      send(res, 200, {
        webhooks: [...webhooks.entries()].map(([bot_id, h]) => ({ bot_id, url: h.url, secret_set: h.secret !== null })),
      });
      return;
    }
    if (req.method === 'GET' && path === '/sandbox/messages') {
      const chatId = url.searchParams.get('chat_id');
      const since = Number(url.searchParams.get('since') ?? 0);
      send(res, 200, {
        messages: received.filter((r) => (chatId === null || r.chat_id === chatId) && r.seq > since),
      });
      return;
    }
    if (req.method !== 'POST') return send(res, 404, { error: 'unknown sandbox control' });
    const body = (await readParams(req, url)) as Record<string, unknown>;
    const chat = path.match(/^\/sandbox\/chats\/([^/]+)$/);
    if (chat) {
      const state = body.state as SandboxChatState;
      if (!['ok', 'blocked', 'missing'].includes(state))
        return send(res, 400, { error: 'state: ok | blocked | missing' });
      chats.set(decodeURIComponent(chat[1]), state);
      return send(res, 200, { chat_id: decodeURIComponent(chat[1]), state });
    }
    if (path === '/sandbox/rate-limit') {
      const count = Number(body.count ?? 1);
      const retryAfter = Number(body.retry_after ?? 1);
      if (!Number.isInteger(count) || count < 0 || !Number.isInteger(retryAfter) || retryAfter < 0)
        return send(res, 400, { error: 'count and retry_after are whole numbers' });
      throttle = { remaining: count, retryAfter, chatId: body.chat_id === undefined ? null : String(body.chat_id) };
      return send(res, 200, throttle);
    }
    if (path === '/sandbox/updates/message') {
      const from = userOf(body.from);
      if (!from || typeof body.text !== 'string') return send(res, 400, { error: 'from {id} and text are required' });
      const chatId = Number(body.chat_id ?? from.id);
      const delivered = await deliver(body.bot_id === undefined ? undefined : String(body.bot_id), {
        message: {
          message_id: Date.now() % 1_000_000,
          from: { is_bot: false, ...from },
          chat: { id: chatId, type: chatId > 0 ? 'private' : 'group' },
          date: Math.floor(Date.now() / 1000),
          text: body.text,
        },
      });
      return send(res, 200, delivered);
    }
    if (path === '/sandbox/updates/press') {
      const from = userOf(body.from);
      const chatId = String(body.chat_id ?? '');
      const message = messages.get(chatId)?.get(Number(body.message_id));
      if (!from || !message)
        return send(res, 400, { error: 'from {id}, and chat_id and message_id of a kept message, are required' });
      const data = String(body.data ?? '');
      const button = message.reply_markup?.inline_keyboard.flat().find((b) => b.callback_data === data);
      // `forged`: data no button has, as a modified client can send (the bot must not trust it).
      if (!button && body.forged !== true)
        return send(res, 400, { error: `the message has no button with data ${data}` });
      const id = `cb${++callbackSeq}`;
      const delivered = await deliver(message.bot_id, {
        callback_query: {
          id,
          from: { is_bot: false, ...from },
          message: { ...messageResult(message, Number(message.bot_id)) },
          chat_instance: `sandbox-${chatId}`,
          data,
        },
      });
      return send(res, 200, { ...delivered, callback_query_id: id, answer: callbackAnswers.get(id) ?? null });
    }
    if (path === '/sandbox/tokens/revoke') {
      if (typeof body.token !== 'string') return send(res, 400, { error: 'token is required' });
      revoked.add(body.token);
      return send(res, 200, { revoked: true });
    }
    if (path === '/sandbox/reset') {
      chats.clear();
      revoked.clear();
      floodUntil.clear();
      received.length = 0;
      messages.clear();
      documentBytes.clear();
      messageIds.clear();
      callbackAnswers.clear();
      throttle = { remaining: 0, retryAfter: 0, chatId: null };
      return send(res, 200, { reset: true });
    }
    send(res, 404, { error: 'unknown sandbox control' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const handle = async () => {
      if (url.pathname.startsWith('/sandbox/') || url.pathname === '/' || url.pathname === '/sandbox')
        return control(req, res, url);
      const m = url.pathname.match(/^\/bot([^/]+)\/([A-Za-z]+)$/);
      if (!m) return send(res, 404, failure(404, 'Not Found'));
      const [, token, method] = m;
      let params: Record<string, unknown>;
      try {
        params = await readParams(req, url);
      } catch {
        return send(res, 400, failure(400, "Bad Request: can't parse JSON object"));
      }
      const [status, answer] = botMethod(token, method, params);
      const caption = method === 'sendDocument' ? params.caption : params.text;
      record({
        method,
        bot_id: token.split(':')[0] ?? '',
        chat_id: params.chat_id === undefined ? null : String(params.chat_id),
        text: typeof caption === 'string' ? caption : null,
        parse_mode: typeof params.parse_mode === 'string' ? params.parse_mode : null,
        status,
        answer,
        ...(isUpload(params.document) ? { document: documentInfo(params.document) } : {}),
      });
      send(res, status, answer);
    };
    handle().catch(() => {
      if (!res.headersSent) send(res, 500, failure(500, 'Internal Server Error'));
    });
  });
  return listenSandbox(server, opts.port, opts.host ?? '127.0.0.1');
}
