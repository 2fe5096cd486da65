// One Chromium per process, a fresh context per check. Locally (and in tests) that is Debian's
// Chromium through puppeteer-core; on Lambda it is @sparticuz/chromium, whose --single-process
// mode dies on createBrowserContext, so there each invocation runs one check in the default context.
//
// The browser opens pages of sites anyone may register, so it is treated as hostile:
//   - it gets a minimal environment (chromiumEnv): never JWT_SECRET, SECRETS_KEY_FILE,
//     ADMIN_PASSWORD, AWS credentials or anything else of the server's;
//   - locally it runs with Chromium's own sandbox (chromiumSandbox decides how; as root, Chromium
//     refuses its sandbox, so it is started as `nobody`, which also keeps it out of DATA_DIR);
//   - every request it makes goes through a guarded egress proxy (lib/net/guardedProxy) that
//     refuses private, loopback, link-local and metadata addresses, redirects and rebinding included.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { config } from '../../lib/config';
import { type GuardedProxy, type RefusedRequest, startGuardedProxy } from '../../lib/net/guardedProxy';
import { startGuardedProxyThread } from '../../lib/net/proxyThread';

/** Flags every headless Chromium here gets, the checker's and the tests'. */
const COMMON_FLAGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/**
 * Flags of a browser run without its sandbox: the e2e tests' and benches' Playwright browsers,
 * which open only our own console and hold no server secrets. The checker does not use these.
 */
export const CHROMIUM_FLAGS = ['--no-sandbox', ...COMMON_FLAGS] as const;

// Chromium bypasses any proxy for loopback addresses unless told not to; the guard must see them.
const PROXY_BYPASS = ['<-loopback>'];

/** The unprivileged user a root process starts Chromium as (nobody). */
const SANDBOX_UID = 65534;
/** util-linux's setpriv (Debian: always installed); puppeteer wants an absolute path. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) ?? '/usr/bin/setpriv';

/** What Chromium may see of the environment: where programs, fonts and the locale are, nothing else. */
const CHROMIUM_ENV_NAMES = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
  // @sparticuz/chromium points these at the libraries it unpacks on Lambda.
  'LD_LIBRARY_PATH',
] as const;

/** The environment Chromium runs with: the allowed names from `from`, and its own HOME. */
export function chromiumEnv(home: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { HOME: home };
  for (const name of CHROMIUM_ENV_NAMES) {
    const value = from[name];
    if (value) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return env;
}

export type ChromiumSandbox =
  /** Chromium's own sandbox, started directly (a non-root process on a host with user namespaces). */
  | { kind: 'native' }
  /** Chromium's own sandbox, started as `nobody` through setpriv (we run as root). */
  | { kind: 'as-nobody' }
  /** No sandbox, and why (Lambda, or a host without user namespaces). */
  | { kind: 'none'; reason: string };

let sandboxDecision: ChromiumSandbox | undefined;

/**
 * How Chromium is sandboxed on this host, probed once. Chromium's Linux sandbox needs user
 * namespaces, and Chromium refuses to run sandboxed as root (crbug.com/638180); as root we start it
 * as `nobody`, which can create the namespaces it needs where the kernel allows unprivileged ones.
 */
export function chromiumSandbox(): ChromiumSandbox {
  if (sandboxDecision) return sandboxDecision;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) {
    sandboxDecision = {
      kind: 'none',
      reason: 'Lambda offers no user namespaces; the function itself is the isolation boundary',
    };
    return sandboxDecision;
  }
  const asRoot = process.getuid?.() === 0;
  const probe = asRoot
    ? spawnSync(
        SETPRIV,
        [`--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_UID}`, '--clear-groups', 'unshare', '--user', 'true'],
        { encoding: 'utf8', timeout: 5000 },
      )
    : spawnSync('unshare', ['--user', 'true'], { encoding: 'utf8', timeout: 5000 });
  const decision: ChromiumSandbox =
    probe.status === 0
      ? { kind: asRoot ? 'as-nobody' : 'native' }
      : {
          kind: 'none',
          reason: `this host does not let ${asRoot ? 'nobody' : 'this user'} create a user namespace (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()})`,
        };
  if (decision.kind === 'none') console.warn(`[checker] Chromium runs without its sandbox: ${decision.reason}`);
  sandboxDecision = decision;
  return decision;
}

interface LaunchedBrowser {
  /** Lambda: one proxy for the process's single default context. */
  proxy?: GuardedProxy;
}

const launched = new WeakMap<Browser, LaunchedBrowser>();

/** True on Lambda unless CHROMIUM_PATH points at a browser of our own. */
export function usesLambdaChromium(): boolean {
  return !!process.env.AWS_LAMBDA_FUNCTION_NAME && !config.chromiumPath;
}

/** Home and profile of one Chromium, owned by the user it runs as; removed when the browser goes. */
async function browserDirs(owner: number | undefined): Promise<{ root: string; profile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'patrol-chromium-'));
  const profile = join(root, 'profile');
  await mkdir(profile, { mode: 0o700 });
  if (owner !== undefined) {
    await chown(root, owner, owner);
    await chown(profile, owner, owner);
  }
  return { root, profile };
}

export async function launchBrowser(opts: { executablePath?: string } = {}): Promise<Browser> {
  if (!opts.executablePath && usesLambdaChromium()) {
    const { default: chromium } = await import('@sparticuz/chromium');
    // Its WebGL default multiplied CPU by 5 in our measurements.
    chromium.setGraphicsMode = false;
    const executablePath = await chromium.executablePath();
    // Single process, default context only: the proxy is the browser's, set at launch.
    const proxy = await startGuardedProxy({ allowedHosts: config.allowedPrivateHosts });
    const dirs = await browserDirs(undefined);
    const browser = await puppeteer
      .launch({
        executablePath,
        args: [...chromium.args, `--proxy-server=${proxy.url}`, `--proxy-bypass-list=${PROXY_BYPASS.join(';')}`],
        headless: true,
        defaultViewport: null,
        userDataDir: dirs.profile,
        env: chromiumEnv(dirs.root),
      })
      .catch(async (error) => {
        await proxy.close();
        throw error;
      });
    launched.set(browser, { proxy });
    browser.once('disconnected', () => void proxy.close());
    removeWhenGone(browser, dirs.root);
    return browser;
  }

  const chromiumPath = opts.executablePath ?? config.chromiumPath ?? '/usr/bin/chromium';
  const sandbox = chromiumSandbox();
  const dirs = await browserDirs(sandbox.kind === 'as-nobody' ? SANDBOX_UID : undefined);
  const flags = [...COMMON_FLAGS, ...(sandbox.kind === 'none' ? ['--no-sandbox'] : [])];
  const env = chromiumEnv(dirs.root);
  const browser = await (sandbox.kind === 'as-nobody'
    ? puppeteer.launch({
        // setpriv execs Chromium in place, so puppeteer still holds Chromium's own process.
        executablePath: SETPRIV,
        ignoreDefaultArgs: true,
        args: [
          `--reuid=${SANDBOX_UID}`,
          `--regid=${SANDBOX_UID}`,
          '--clear-groups',
          '--',
          chromiumPath,
          ...(await puppeteer.defaultArgs({ headless: true, userDataDir: dirs.profile, args: flags })),
        ],
        headless: true,
        defaultViewport: null,
        env,
      })
    : puppeteer.launch({
        executablePath: chromiumPath,
        args: flags,
        headless: true,
        defaultViewport: null,
        userDataDir: dirs.profile,
        env,
      })
  ).catch(async (error) => {
    await rm(dirs.root, { recursive: true, force: true });
    throw error;
  });
  launched.set(browser, {});
  removeWhenGone(browser, dirs.root);
  return browser;
}

/** Removes the browser's home once its process has exited (it writes to its profile until then). */
function removeWhenGone(browser: Browser, dir: string): void {
  const remove = () => void rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
  const child = browser.process();
  if (child && child.exitCode === null) child.once('exit', remove);
  else browser.once('disconnected', remove);
}

let shared: Promise<Browser> | undefined;

/** The process's browser, launched on first use and again if it crashed or was closed. */
export async function sharedBrowser(): Promise<Browser> {
  if (shared) {
    const browser = await shared.catch(() => undefined);
    if (browser?.connected) return browser;
  }
  shared = launchBrowser();
  return shared;
}

export async function closeSharedBrowser(): Promise<void> {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close().catch(() => {});
}

export interface CheckContext {
  context: BrowserContext;
  page: Page;
  /** What the egress guard refused during this check (private addresses, metadata hosts...). */
  refused(): readonly RefusedRequest[];
  /** Host names that did not resolve during this check. */
  unresolved(): readonly string[];
  /** Resolves once everything the guard refused so far is in refused() and unresolved() (a proxy on another thread reports it). */
  reported(): Promise<void>;
  /** Ends the check's context (or, in the default context, its page and cookies). Never throws. */
  close(): Promise<void>;
}

export interface CheckContextOptions {
  /** Hosts the check may reach although private; default config.allowedPrivateHosts. */
  allowedHosts?: readonly string[];
}

export async function openCheckContext(browser: Browser, opts: CheckContextOptions = {}): Promise<CheckContext> {
  const shared = launched.get(browser)?.proxy;
  if (shared) {
    // Lambda: one check at a time in the default context, so what the proxy refuses from now on is this check's.
    const from = shared.refused.length;
    const unresolvedFrom = shared.unresolved.length;
    const context = browser.defaultBrowserContext();
    const page = await context.newPage();
    return {
      context,
      page,
      refused: () => shared.refused.slice(from),
      unresolved: () => shared.unresolved.slice(unresolvedFrom),
      reported: async () => {},
      close: async () => {
        await page.close().catch(() => {});
        const cookies = await context.cookies().catch(() => []);
        if (cookies.length) await context.deleteCookie(...cookies).catch(() => {});
      },
    };
  }
  // A proxy per check: what it refused belongs to this check, whatever else runs in the browser. On
  // a thread of its own, so a page's requests never wait behind the other checks' store work.
  const proxy = await startGuardedProxyThread({ allowedHosts: opts.allowedHosts ?? config.allowedPrivateHosts });
  try {
    const context = await browser.createBrowserContext({ proxyServer: proxy.url, proxyBypassList: PROXY_BYPASS });
    const page = await context.newPage();
    return {
      context,
      page,
      refused: () => proxy.refused,
      unresolved: () => proxy.unresolved,
      reported: () => proxy.sync(),
      close: async () => {
        await context.close().catch(() => {});
        await proxy.close();
      },
    };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}
