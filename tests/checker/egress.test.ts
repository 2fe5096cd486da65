// The browser is hostile territory: what a registered site can make the checker do, and what a
// compromised Chromium could read. Checked on the real processes, against real pages.
import { readFileSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSessionToken } from '../../functions/checks/drivers/seedSessionToken';
import { processTree } from '../../scripts/tools/processTree';
import { type CheckerFixture, startCheckerFixture } from './checkerFixture';

/** Secrets the server holds in its environment; the test process gets them for the duration. */
const SERVER_SECRETS = {
  JWT_SECRET: 'jwt-secret-that-must-stay-in-node',
  SECRETS_KEY_FILE: '/data/secrets.key',
  ADMIN_PASSWORD: 'admin-password-must-stay',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-must-stay',
  AWS_SESSION_TOKEN: 'aws-session-must-stay',
};
const saved: Record<string, string | undefined> = {};
/**
 * All Chromium may see: where programs, fonts and the locale are, its own HOME, and what Debian's
 * /usr/bin/chromium launcher script adds itself (its flags, PWD, and the public Google API keys
 * Debian builds with).
 */
const ALLOWED_ENV =
  /^(PATH|HOME|LANG|LANGUAGE|LC_ALL|LC_CTYPE|TZ|FONTCONFIG_PATH|FONTCONFIG_FILE|LD_LIBRARY_PATH|PWD|CHROMIUM_FLAGS|CHROME_VERSION_EXTRA|CHROME_WRAPPER|CHROME_DESKTOP|GOOGLE_API_KEY|GOOGLE_DEFAULT_CLIENT_ID|GOOGLE_DEFAULT_CLIENT_SECRET)$/;

/**
 * Variables Chromium sets itself for the helpers it starts: headless Chromium turns D-Bus off and
 * fontconfig's Fontations on (both names are in its binary; Chromium 156 showed them in one helper
 * sampled mid-check on a loaded machine, 2026-11-29). One counts as Chromium's only where its value
 * is not this process's own, so a variable passed on from our environment still fails the test.
 */
const SET_BY_CHROMIUM = new Set(['DBUS_SESSION_BUS_ADDRESS', 'FC_FONTATIONS']);
const setByChromium = (name: string, value: string) => SET_BY_CHROMIUM.has(name) && process.env[name] !== value;

let f: CheckerFixture;
beforeAll(async () => {
  for (const [k, v] of Object.entries(SERVER_SECRETS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  f = await startCheckerFixture();
});
afterAll(async () => {
  await f?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function chromiumProcesses(): number[] {
  return processTree(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium');
    } catch {
      return false;
    }
  });
}

/**
 * The environment block of a process. Chromium's helpers overwrite part of that memory with their
 * process title, so only `NAME=value` entries are variables; the raw text is kept for value checks.
 */
function environ(pid: number): { vars: Record<string, string>; raw: string } {
  const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  const vars = Object.fromEntries(
    raw
      .split('\0')
      .filter((kv) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(kv))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { vars, raw };
}

describe('Chromium during a check', () => {
  it('holds none of the server secrets, runs sandboxed and not as root, in every process', async () => {
    const running = f.check(2, { user: 'agent-env' });
    // Sampled while the check's page is open, so its renderer exists.
    await new Promise((r) => setTimeout(r, 800));
    const seen = chromiumProcesses().flatMap((pid) => {
      try {
        return [
          {
            pid,
            env: environ(pid),
            // Chromium's helpers rewrite their title: the flags may be one space-separated string.
            cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '),
            uid: Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]),
            userNs: readlinkSync(`/proc/${pid}/ns/user`),
          },
        ];
      } catch {
        return []; // a helper process that ended meanwhile
      }
    });
    const { outcome } = await running;

    expect(outcome.success, outcome.msg).toBe(true);
    expect(seen.length).toBeGreaterThan(2);
    for (const p of seen) {
      for (const name of Object.keys(SERVER_SECRETS))
        expect(p.env.vars, `${name} in pid ${p.pid}`).not.toHaveProperty(name);
      expect(p.env.raw).not.toMatch(/must-stay|jwt-secret|AKIAEXAMPLE|secrets\.key/);
      expect(Object.keys(p.env.vars).filter((k) => !ALLOWED_ENV.test(k) && !setByChromium(k, p.env.vars[k]!))).toEqual(
        [],
      );
      expect(p.cmdline).not.toMatch(/--no-sandbox\b/);
      expect(p.uid, `pid ${p.pid} runs as root`).not.toBe(0);
    }
    // A sandboxed renderer lives in a user namespace of its own; unsandboxed it would share ours.
    const renderers = seen.filter((p) => /--type=renderer\b/.test(p.cmdline));
    expect(renderers.length).toBeGreaterThan(0);
    const ours = readlinkSync('/proc/self/ns/user');
    for (const r of renderers) expect(r.userNs).not.toBe(ours);
  });
});

describe('a site that sends the browser to a private address', () => {
  it('is not loaded: the check fails and names the refused address', async () => {
    const { outcome } = await f.check(1, { site: { url: `${f.site.url}/to-metadata` } });

    expect(outcome.success).toBe(false);
    expect(outcome.msg).toMatch(
      /^Refused to open http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/: 169\.254\.169\.254 is a link-local address \(cloud metadata lives there\)/,
    );
    // Nothing of the refused page came back: no step read a login form.
    expect(outcome.steps.find((s) => s.name === 'type credentials')?.ok).not.toBe(true);
  });

  it('cannot reach a loopback port of this machine that is not allow-listed', async () => {
    const other = await startCheckerFixture();
    try {
      // Same sandbox code, but its port is not in this check's allow-list.
      const { outcome } = await f.check(1, { site: { url: other.site.url } });
      expect(outcome.success).toBe(false);
      expect(outcome.msg).toContain(`Refused to open ${other.site.url}/login`);
      expect(outcome.msg).toContain('loopback address');
    } finally {
      await other.close();
    }
  });
});

describe('a stored session', () => {
  it('is seeded only into documents of the site itself, not into other origins the page opens', async () => {
    const other = await startCheckerFixture();
    const context = await f.browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await seedSessionToken(page, `${f.site.url}/`, 'stored-session-token');

      await page.goto(`${other.site.url}/login`);
      const elsewhere = await page.evaluate(() => localStorage.getItem('token'));
      await page.goto(`${f.site.url}/login`);
      const onSite = await page.evaluate(() => localStorage.getItem('token'));

      expect(elsewhere).toBeNull();
      expect(onSite).toBe('stored-session-token');
    } finally {
      await context.close();
      await other.close();
    }
  });
});

describe('a site whose name does not resolve', () => {
  it('fails at once and says so', async () => {
    const started = Date.now();
    const { outcome } = await f.check(1, { site: { url: 'https://no-such-site.invalid' } });
    expect(outcome).toMatchObject({
      success: false,
      msg: 'Check failed: the site address no-such-site.invalid does not resolve',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
