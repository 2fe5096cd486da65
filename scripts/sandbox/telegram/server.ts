// The sandbox Telegram Bot API: what Patrol's Telegram client talks to locally, in demos and in
// tests. It answers `sendMessage` (and `getMe`) at `/bot<token>/<method>` with the real Bot API's
// shapes and failures, records every request it received, and has switches to make a chat blocked
// or unknown, revoke a token or throttle with 429 + retry_after. Plain node:http; all state lives
// in memory per server instance. The contract is in docs/notifications.md.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BOT_TOKEN_PATTERN, TELEGRAM_MESSAGE_LIMIT } from '../../../shared/schemas/telegram.js';
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
}

const SANDBOX_BOT = { is_bot: true, first_name: 'Patrol Sandbox Bot', username: 'patrol_sandbox_bot' };
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1_000_000) throw new Error('too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The Bot API takes parameters as a query string, urlencoded/multipart form or JSON; the sandbox takes the first three. */
async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (req.method !== 'POST') return params;
  const raw = await readBody(req);
  if (!raw) return params;
  const type = req.headers['content-type'] ?? '';
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
    if (method !== 'sendMessage') return [404, failure(404, 'Not Found')];

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
    const source = typeof params.text === 'string' ? params.text : '';
    let text = source;
    if (String(params.parse_mode ?? '').toUpperCase() === 'HTML') {
      const parsed = parseTelegramHtml(source);
      if (!parsed.ok) return [400, failure(400, parsed.description)];
      text = parsed.text;
    }
    if (!text.trim()) return [400, failure(400, 'Bad Request: message text is empty')];
    if (text.length > TELEGRAM_MESSAGE_LIMIT) return [400, failure(400, 'Bad Request: message is too long')];
    const messageId = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, messageId);
    return [
      200,
      {
        ok: true,
        result: {
          message_id: messageId,
          from: { id: botId, ...SANDBOX_BOT },
          chat: chatOf(chatId),
          date: Math.floor(now / 1000),
          text,
        },
      },
    ];
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
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
      throttle = { remaining: 0, retryAfter: 0, chatId: null };
      return send(res, 200, { reset: true });
    }
    send(res, 404, { error: 'unknown sandbox control' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const handle = async () => {
      if (url.pathname.startsWith('/sandbox/')) return control(req, res, url);
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
      record({
        method,
        bot_id: token.split(':')[0] ?? '',
        chat_id: params.chat_id === undefined ? null : String(params.chat_id),
        text: typeof params.text === 'string' ? params.text : null,
        parse_mode: typeof params.parse_mode === 'string' ? params.parse_mode : null,
        status,
        answer,
      });
      send(res, status, answer);
    };
    handle().catch(() => {
      if (!res.headersSent) send(res, 500, failure(500, 'Internal Server Error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
