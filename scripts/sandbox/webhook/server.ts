// The sandbox webhook receiver: where the local stack's bank accounts deliver their notifications
// in demos and tests. Every POST to /hooks/<name> is recorded (headers and body) and answered
// per the hook's switches: 200 by default; `fail` N times with 500 then 200, always 500, 429
// with Retry-After, or a slow answer. Plain node:http; state lives in memory per server.
//
// It de-duplicates as a receiver following Standard Webhooks does (Patrol delivers at least once,
// and every resend of a notification carries the same `webhook-id`): a request whose webhook-id
// the hook already accepted (answered 2xx) is answered 200 again without being taken twice and
// without consuming the hook's switches. Both are recorded: every request received (`duplicate`
// marks the repeats) and the ones accepted, each message once.
//
// Control API (JSON):
//   GET    /sandbox/hooks/<name>/requests      what the hook received, oldest first, repeats included
//   GET    /sandbox/hooks/<name>/accepted      what the hook accepted: 2xx, first of its webhook-id
//   PUT    /sandbox/hooks/<name>/behaviour     {mode: 'ok'|'fail'|'always'|'rate'|'status', times?, status?, delay_ms?}
//   DELETE /sandbox/hooks/<name>               forgets the hook's requests and switches
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenSandbox, sandboxTimers } from '../serveSandbox.js';

export interface SandboxWebhookHandle {
  /** e.g. http://127.0.0.1:41234; a hook's URL is `${url}/hooks/<name>`. */
  url: string;
  stop(): Promise<void>;
}

export interface ReceivedDelivery {
  seq: number;
  at: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The body as sent (exact bytes as text: signatures are over these). */
  body: string;
  /** What the hook answered. */
  status: number;
  /** A message whose webhook-id the hook had already accepted: answered 200 again, not taken twice. */
  duplicate: boolean;
}

export interface HookBehaviour {
  /** ok: 200; fail: 500 `times` times then 200; always: 500; rate: 429 `times` times (or always when absent); status: `status` always. */
  mode: 'ok' | 'fail' | 'always' | 'rate' | 'status';
  times?: number;
  status?: number;
  /** Waits this long before answering (a slow receiver; past the 10 s timeout it is no answer). */
  delay_ms?: number;
}

interface Hook {
  requests: ReceivedDelivery[];
  /** The webhook-ids answered 2xx (what a receiver stores to process each message once). */
  acceptedIds: Set<string>;
  behaviour: HookBehaviour;
  answered: number;
}

const KEEP = 20_000;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

export async function startSandboxWebhook(opts: { port: number; host?: string }): Promise<SandboxWebhookHandle> {
  const hooks = new Map<string, Hook>();
  // A slow answer's wait ends with the sandbox, not after it.
  const timers = sandboxTimers();
  let seq = 0;
  const hookOf = (name: string) => {
    let h = hooks.get(name);
    if (!h) {
      h = { requests: [], acceptedIds: new Set(), behaviour: { mode: 'ok' }, answered: 0 };
      hooks.set(name, h);
    }
    return h;
  };

  function answerFor(h: Hook): { status: number; headers: Record<string, string> } {
    const b = h.behaviour;
    const n = h.answered++;
    switch (b.mode) {
      case 'fail':
        return { status: n < (b.times ?? 1) ? 500 : 200, headers: {} };
      case 'always':
        return { status: 500, headers: {} };
      case 'rate':
        return b.times === undefined || n < b.times
          ? { status: 429, headers: { 'retry-after': '1' } }
          : { status: 200, headers: {} };
      case 'status':
        return { status: b.status ?? 400, headers: {} };
      default:
        return { status: 200, headers: {} };
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const hook = /^\/hooks\/([\w.-]{1,100})$/.exec(url.pathname);
      if (hook && req.method === 'POST') {
        const h = hookOf(hook[1] as string);
        const body = await readBody(req);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
        const id = headers['webhook-id'];
        const duplicate = id !== undefined && h.acceptedIds.has(id);
        const answer = duplicate ? { status: 200, headers: {} } : answerFor(h);
        if (id !== undefined && answer.status < 300) h.acceptedIds.add(id);
        h.requests.push({ seq: ++seq, at: Date.now(), headers, body, status: answer.status, duplicate });
        if (h.requests.length > KEEP) h.requests.shift();
        if (h.behaviour.delay_ms) await timers.sleep(h.behaviour.delay_ms);
        json(
          res,
          answer.status,
          answer.status < 300 ? { ok: true } : { ok: false, error: `sandbox answers ${answer.status}` },
          answer.headers,
        );
        return;
      }
      const control = /^\/sandbox\/hooks\/([\w.-]{1,100})(\/requests|\/accepted|\/behaviour)?$/.exec(url.pathname);
      if (control) {
        const name = control[1] as string;
        if (control[2] === '/requests' && req.method === 'GET') return json(res, 200, hookOf(name).requests);
        if (control[2] === '/accepted' && req.method === 'GET')
          return json(
            res,
            200,
            hookOf(name).requests.filter((r) => r.status < 300 && !r.duplicate),
          );
        if (control[2] === '/behaviour' && req.method === 'PUT') {
          const behaviour = JSON.parse((await readBody(req)) || '{}') as HookBehaviour;
          const h = hookOf(name);
          h.behaviour = behaviour;
          h.answered = 0;
          return json(res, 200, behaviour);
        }
        if (!control[2] && req.method === 'DELETE') {
          hooks.delete(name);
          return json(res, 200, { ok: true });
        }
      }
      json(res, 404, { error: 'no such sandbox webhook route' });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 400, { error: String(error) });
    });
  });
  return listenSandbox(server, opts.port, opts.host ?? '127.0.0.1', timers.clear);
}
