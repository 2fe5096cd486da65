// The sandbox OpenID Connect provider: what Patrol's single sign-on talks to locally, in demos and in
// tests. A real provider (oidc-provider), not a stub, so the flow Patrol runs against it is the one it
// runs against Google Workspace, Entra ID or Cognito: discovery, authorization code with PKCE, state,
// nonce, a signed ID token. Its sign-in form is the sandbox's own (a name, the sandbox's password, and
// a switch that says the user also passed a second factor: `amr` then holds `mfa` and `acr` is `mfa`).
// Consent is skipped: Patrol is the one first-party client. Every account's claims are in its ID
// token (preferred_username, email, email_verified, name). State lives in memory per server.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { listenSandbox } from '../serveSandbox.js';

export interface SandboxOidcOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where the provider may send the browser back: Patrol's callback (`${PUBLIC_URL}/api/v1/auth/oidc/callback`). */
  redirectUris: string[];
  /**
   * What every account signs in with. A secret of the stack (the local stack's is generated and kept in
   * DATA_DIR, as the admin password is), never a well-known word: the demo maps Patrol's users to the
   * provider's names, so a known password here would be a second way into every one of them.
   */
  password: string;
}

export interface SandboxOidcHandle {
  /** The issuer, e.g. http://127.0.0.1:41234 (discovery at /.well-known/openid-configuration). */
  url: string;
  stop(): Promise<void>;
}

/** The one client the sandbox knows: what the local stack's demo data configures. */
export const SANDBOX_OIDC_CLIENT = { id: 'patrol-local', secret: 'patrol-local-sandbox-secret' } as const;
/**
 * The fixed accounts the form lists: one Patrol knows on a fresh stack with the demo data (an operator
 * whose provider name differs in case), and one it never knows. Any other name of letters, digits and
 * `. _ - @` is an account too, so a test can sign in as a user it made.
 */
export const SANDBOX_OIDC_ACCOUNTS = [
  { login: 'operator1', preferred_username: 'Operator1', name: 'Sandbox Operator' },
  { login: 'stranger', preferred_username: 'stranger', name: 'Someone Patrol does not know' },
] as const;

const LOGIN = /^[A-Za-z0-9._@-]{1,64}$/;

function claimsOf(login: string) {
  const known = SANDBOX_OIDC_ACCOUNTS.find((a) => a.login === login.toLowerCase());
  const preferred = known?.preferred_username ?? login;
  return {
    sub: login.toLowerCase(),
    preferred_username: preferred,
    name: known?.name ?? login,
    email: login.includes('@') ? login : `${login.toLowerCase()}@patrol.sandbox`,
    email_verified: true,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(uid: string, clientName: string, error?: string, login = ''): string {
  const accounts = SANDBOX_OIDC_ACCOUNTS.map((a) => `<code>${a.login}</code>`).join(', ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox identity provider</title>
<style>
body{font-family:system-ui,sans-serif;background:#eef1f5;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;padding:32px 36px;border-radius:10px;box-shadow:0 8px 24px rgba(0,0,0,.12);width:340px}
h1{font-size:20px;margin:0 0 4px}p{color:#555;font-size:13px}label{display:block;margin:12px 0 4px;font-size:14px}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:8px;font-size:14px}
.check{display:flex;gap:8px;align-items:center;margin-top:14px}.check label{margin:0}
button{margin-top:18px;width:100%;padding:10px;font-size:15px;background:#6b2fb3;color:#fff;border:0;border-radius:6px}
.error{color:#b10e1c;font-size:14px}
</style></head><body><main>
<h1>Sandbox identity provider</h1>
<p>Signing in to <b>${escapeHtml(clientName)}</b>. Accounts: ${accounts} (or any other name). The password is the sandbox's own, printed by <code>npm start</code> and kept in <code>DATA_DIR/sandbox-oidc-password.txt</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="login">Account</label><input id="login" name="login" type="text" autocomplete="off" value="${escapeHtml(login)}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password">
<div class="check"><input id="mfa" name="mfa" type="checkbox" value="1"><label for="mfa">I also passed a second factor (MFA)</label></div>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const samePassword = (typed: string, password: string) => timingSafeEqual(digest(typed), digest(password));

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 16_384) break;
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startSandboxOidc(opts: SandboxOidcOptions): Promise<SandboxOidcHandle> {
  let provider: Provider | undefined;
  const html = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  };

  // The sign-in form: GET shows it, POST checks it and hands the login back to the provider.
  async function interaction(req: IncomingMessage, res: ServerResponse, p: Provider): Promise<void> {
    const details = await p.interactionDetails(req, res);
    const client = await p.Client.find(String(details.params.client_id));
    const clientName = String(client?.clientName ?? details.params.client_id);
    if (req.method === 'GET') return html(res, 200, page(details.uid, clientName));
    const form = await formBody(req);
    const login = (form.get('login') ?? '').trim();
    if (!LOGIN.test(login)) return html(res, 400, page(details.uid, clientName, 'Type an account name.', login));
    if (!samePassword(form.get('password') ?? '', opts.password))
      return html(res, 400, page(details.uid, clientName, 'Wrong password.', login));
    const mfa = form.get('mfa') === '1';
    await p.interactionFinished(
      req,
      res,
      { login: { accountId: login.toLowerCase(), amr: mfa ? ['pwd', 'mfa'] : ['pwd'], acr: mfa ? 'mfa' : 'pwd' } },
      { mergeWithLastSubmission: false },
    );
  }

  const server = createServer((req, res) => {
    const p = provider;
    if (!p) {
      res.writeHead(503).end();
      return;
    }
    if (/^\/interaction\/[^/]+(\/login)?$/.test((req.url ?? '').split('?')[0])) {
      interaction(req, res, p).catch((error: Error) => {
        if (!res.headersSent) html(res, 400, `<p>${escapeHtml(error.message)}</p>`);
      });
      return;
    }
    p.callback()(req, res);
  });
  const listening = await listenSandbox(server, opts.port, opts.host ?? '127.0.0.1');

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    // In memory, as the sandbox keeps everything; named, so the provider does not warn of its default.
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: SANDBOX_OIDC_CLIENT.id,
        client_secret: SANDBOX_OIDC_CLIENT.secret,
        client_name: 'Patrol (local)',
        redirect_uris: opts.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'sandbox' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      // amr and acr with the openid scope: the provider puts in the ID token only what a scope names.
      openid: ['sub', 'acr', 'amr'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    // Every granted claim goes into the ID token, as Google and Entra put theirs: Patrol reads the ID token only.
    conformIdTokenClaims: false,
    acrValues: ['pwd', 'mfa'],
    findAccount: (_ctx: KoaContextWithOIDC, id: string) =>
      Promise.resolve({ accountId: id, claims: () => Promise.resolve(claimsOf(id)) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Lifetimes set, as the provider asks of every deployment (it prints a notice per default used).
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    // No consent screen: the sandbox's one client is first-party; every scope it asks is granted.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Sandbox identity provider</title><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(String(out.error_description ?? ''))}</p>`;
    },
  };
  provider = new Provider(listening.url, configuration);
  // The sandbox runs over plain http on the loopback address: no proxy headers to trust.
  provider.proxy = false;
  return listening;
}
