// npm run smoke -- --url https://patrol.example.com [--user admin] [--admin-secret <arn or name>]
//
// The check after a deploy: through the address users use (CloudFront, or the local server), it
// asks for health, signs in, lists sites and reads the API document, and prints one line per
// check. Exits 0 when all pass, 1 when one fails, 2 on a usage error.
//
// The password: PATROL_PASSWORD from the environment, else the Secrets Manager secret that
// --admin-secret names (the stack output AdminPasswordSecret: admin's first password, read with
// the shell's AWS credentials). It is never printed.
//
// The second factor (docs/sign-in.md): a stage asks super users for one. PATROL_TOTP_SECRET, the
// base32 key of the smoke user's authenticator app, answers the second step with a code made here;
// PATROL_TOKEN instead skips signing in and uses that token (then no password is needed).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { generate } from 'otplib';

export interface SmokeOptions {
  url: string;
  user: string;
  password: string;
  /** The base32 TOTP key of the user's app, for a user with a second factor. */
  totpSecret?: string;
  /** A token to use instead of signing in. */
  token?: string;
  /** Per request. */
  timeoutMs?: number;
}

export interface SmokeCheck {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

const API = '/api/v1';

async function call(
  base: string,
  path: string,
  init: RequestInit & { timeoutMs: number },
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(new URL(path, base), { ...init, signal: AbortSignal.timeout(init.timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the message.
  }
  return { status: res.status, body };
}

const brief = (body: unknown) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

/** Runs the checks in order; a check that needs the sign-in is skipped (failed) when it failed. */
export async function runSmoke(opts: SmokeOptions): Promise<SmokeCheck[]> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const results: SmokeCheck[] = [];
  const check = async (name: string, run: () => Promise<string>) => {
    const started = Date.now();
    try {
      const detail = await run();
      results.push({ name, ok: true, ms: Date.now() - started, detail });
      return true;
    } catch (error) {
      results.push({ name, ok: false, ms: Date.now() - started, detail: (error as Error).message });
      return false;
    }
  };

  await check('health', async () => {
    const { status, body } = await call(opts.url, `${API}/health`, { timeoutMs });
    const data = (body as { data?: { status?: string } })?.data;
    if (status !== 200 || data?.status !== 'ok') throw new Error(`HTTP ${status}: ${brief(body)}`);
    return 'ok';
  });

  let token: string | undefined = opts.token;
  const post = (path: string, data: unknown) =>
    call(opts.url, `${API}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
      timeoutMs,
    });
  await check(`sign in as ${opts.user}`, async () => {
    if (opts.token) return 'token given';
    const { status, body } = await post('/login', { username: opts.user, password: opts.password });
    type Answer = { data?: { jwt?: string; second_factor?: { ticket: string }; enroll?: unknown } };
    const data = (body as Answer)?.data;
    if (status === 200 && data?.second_factor) {
      if (!opts.totpSecret) throw new Error('the user has a second factor: set PATROL_TOTP_SECRET or PATROL_TOKEN');
      const code = await generate({ secret: opts.totpSecret });
      const second = await post('/login/second-factor', { ticket: data.second_factor.ticket, method: 'totp', code });
      const jwt = (second.body as Answer)?.data?.jwt;
      if (second.status !== 200 || !jwt) throw new Error(`second step: HTTP ${second.status}: ${brief(second.body)}`);
      token = jwt;
      return 'signed in with a TOTP code';
    }
    if (status === 200 && data?.enroll) {
      throw new Error('the user must set up a second factor first: sign in once in the console');
    }
    if (status !== 200 || !data?.jwt) throw new Error(`HTTP ${status}: ${brief(body)}`);
    token = data.jwt;
    return 'signed in';
  });

  await check('list sites', async () => {
    if (!token) throw new Error('skipped: not signed in');
    const { status, body } = await call(opts.url, `${API}/sites?page=1&page_size=10`, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs,
    });
    const data = (body as { data?: { total_count?: number; result?: unknown[] } })?.data;
    if (status !== 200 || !Array.isArray(data?.result)) throw new Error(`HTTP ${status}: ${brief(body)}`);
    return `${data.total_count ?? data.result.length} sites`;
  });

  await check('API document', async () => {
    const { status, body } = await call(opts.url, `${API}/openapi.json`, { timeoutMs });
    const doc = body as { openapi?: string; paths?: Record<string, unknown> };
    if (status !== 200 || !doc?.openapi || !doc.paths) throw new Error(`HTTP ${status}: ${brief(body)}`);
    return `OpenAPI ${doc.openapi}, ${Object.keys(doc.paths).length} paths`;
  });
  return results;
}

interface Args {
  url: string;
  user: string;
  adminSecret?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> = { user: 'admin' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--url') args.url = value();
    else if (flag === '--user') args.user = value();
    else if (flag === '--admin-secret') args.adminSecret = value();
    else throw new Error(`Unknown argument '${argv[i]}'`);
  }
  if (!args.url) throw new Error('--url is required, e.g. --url https://patrol.example.com');
  const url = new URL(args.url);
  if (url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error('--url must be https (plain http only for this machine)');
  }
  return args as Args;
}

async function passwordFor(args: Args): Promise<string> {
  if (process.env.PATROL_PASSWORD) return process.env.PATROL_PASSWORD;
  if (!args.adminSecret) {
    throw new Error('Set PATROL_PASSWORD, or pass --admin-secret with the stack output AdminPasswordSecret');
  }
  const client = new SecretsManagerClient({});
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: args.adminSecret }));
    if (!out.SecretString) throw new Error(`Secret ${args.adminSecret} has no value`);
    return out.SecretString;
  } finally {
    client.destroy();
  }
}

async function main(): Promise<number> {
  let args: Args;
  let password = '';
  const token = process.env.PATROL_TOKEN || undefined;
  try {
    args = parseArgs(process.argv.slice(2));
    if (!token) password = await passwordFor(args);
  } catch (error) {
    console.error(`smoke: ${(error as Error).message}`);
    return 2;
  }
  console.log(`smoke: ${args.url}`);
  const totpSecret = process.env.PATROL_TOTP_SECRET || undefined;
  const results = await runSmoke({ url: args.url, user: args.user, password, totpSecret, token });
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.ms} ms): ${r.detail}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(
    failed ? `smoke: ${failed} of ${results.length} checks failed` : `smoke: all ${results.length} checks passed`,
  );
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then((code) => {
    process.exitCode = code;
  });
}
