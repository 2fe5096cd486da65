// Driver of the sandbox 4D agent portal (scripts/sandbox/site), and the default for every site.
// It works the way an agent does: types into the login form, opens each page from the portal's
// URL scheme, clicks its buttons, and reads the JSON answers the page's own script received
// (plus the DOM where the page renders them), so the recorded video shows the real flow.
import { z } from 'zod';
import {
  AgentStat,
  BalanceStatRow,
  DrawSetting,
  OutSetting3Data,
  PlacedBet,
  type ProcessResult,
  type StoredSession,
} from '../../../shared/schemas/checkResults';
import { TestMode } from '../../../shared/enums';
import { LoginFailedError, MalformedResponseError, SessionExpiredError } from './errors';
import { seedSessionToken } from './seedSessionToken';
import type { DriverContext, ProcessVerdict, SiteDriver } from './SiteDriver';
import { type SiteCall, watchSiteCall } from './watchSiteCall';

/** Every answer of the portal: {code, msg, data?}; code 0 is success. */
const Envelope = z.object({ code: z.number(), msg: z.string(), data: z.unknown().optional() });
type Envelope = z.infer<typeof Envelope>;

interface SignedIn {
  session: StoredSession;
  /** True when a stored session was reused (it may turn out stale). */
  reused: boolean;
}

function modeSlug(ctx: DriverContext): 'd4' | 'tt' {
  return ctx.mode === TestMode.values.TT ? 'tt' : 'd4';
}

function siteUrl(ctx: DriverContext, path: string): string {
  return `${ctx.site.url.replace(/\/+$/, '')}${path}`;
}

function envelope(call: SiteCall): Envelope {
  const parsed = Envelope.safeParse(call.body);
  if (!parsed.success) throw new MalformedResponseError(call.call, 'not a {code, msg} answer', call.status);
  return parsed.data;
}

/** The data of a successful answer, checked against the shape the result needs. */
function dataOf<T>(call: SiteCall, schema: z.ZodType<T>): T {
  const env = envelope(call);
  const parsed = schema.safeParse(env.data);
  if (!parsed.success)
    throw new MalformedResponseError(call.call, `unexpected data (${parsed.error.issues[0]?.message})`, call.status);
  return parsed.data;
}

function httpDetail(c: SiteCall): string {
  return `HTTP ${c.status}`;
}

/** Signs in through the login form; the page then lands on the mode's dashboard. */
async function signInWithForm(ctx: DriverContext, opts: { awaitDashboard: boolean }): Promise<SignedIn> {
  const { page, step, timeoutMs } = ctx;
  const mode = modeSlug(ctx);
  await step('open /login', () =>
    page.goto(siteUrl(ctx, `/login?next=/${mode}/home`), { waitUntil: 'domcontentloaded', timeout: timeoutMs }),
  );
  await step('type credentials', async () => {
    await page.waitForSelector('#username', { timeout: timeoutMs });
    await page.locator('#username').fill(ctx.account.user);
    await page.locator('#password').fill(ctx.account.pwd);
  });
  const loginCall = await watchSiteCall(page, 'POST', '/api/login', timeoutMs, { authCall: true });
  const profileCall = await watchSiteCall(page, 'GET', `/api/${mode}/profile`, timeoutMs * 2);
  const landed = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: timeoutMs * 2 });
  landed.catch(() => {});
  const login = await step(
    'POST /api/login',
    async () => {
      await page.click('#login-btn');
      return loginCall.done;
    },
    { detail: httpDetail },
  );
  const env = envelope(login);
  if (!opts.awaitDashboard) profileCall.cancel();
  if (env.code !== 0) {
    profileCall.cancel();
    throw new LoginFailedError(env.msg, login.status);
  }
  const data = dataOf(login, z.object({ token: z.string(), expires_at: z.number() }));
  await step(`open /${mode}/home`, () => landed);
  if (new URL(page.url()).pathname === '/login') throw new SessionExpiredError(`open /${mode}/home`);
  if (opts.awaitDashboard) {
    await step(`GET /api/${mode}/profile`, () => profileCall.done, { detail: httpDetail });
    await step('read dashboard', () =>
      page.waitForFunction(
        `document.getElementById('profile-user')?.textContent === ${JSON.stringify(ctx.account.user)}`,
        {
          timeout: timeoutMs,
        },
      ),
    );
  }
  const cookies = await page.browserContext().cookies();
  return {
    reused: false,
    session: {
      auth_type: 1,
      token: data.token,
      cookies: cookies.map((c) => ({
        name: c.name,
        value: c.value,
        domain: c.domain,
        path: c.path,
        expires: c.expires,
        httpOnly: c.httpOnly ?? false,
        secure: c.secure,
      })),
      expires_at: data.expires_at,
    },
  };
}

/** Reuses a stored, unexpired session (auth type 2 Session), else signs in with the account. */
async function signIn(ctx: DriverContext): Promise<SignedIn> {
  const stored = ctx.session;
  if (stored && stored.expires_at > Date.now() && stored.cookies.length > 0) {
    await ctx.step('restore session', async () => {
      await ctx.page
        .browserContext()
        .setCookie(...stored.cookies.map((c) => ({ ...c, expires: c.expires > 0 ? c.expires : undefined })));
      // The portal's script sends the token as a Bearer header as well as the cookie.
      await seedSessionToken(ctx.page, ctx.site.url, stored.token);
    });
    return { reused: true, session: { ...stored, auth_type: 2 } };
  }
  return signInWithForm(ctx, { awaitDashboard: false });
}

/**
 * Opens a page of the current mode and returns the answer of the call the page makes on load
 * (or undefined for pages without one). A stored session the site no longer accepts is replaced by
 * a fresh login once; a fresh session that is refused means the site dropped it mid-task.
 */
async function openModePage(
  ctx: DriverContext,
  auth: SignedIn,
  path: string,
  onLoad?: { method: string; api: string },
): Promise<{ call?: SiteCall; auth: SignedIn }> {
  const { page, step, timeoutMs } = ctx;
  const mode = modeSlug(ctx);
  const pending = onLoad
    ? await watchSiteCall(page, onLoad.method, `/api/${mode}/${onLoad.api}`, timeoutMs * 2)
    : undefined;
  await step(`open /${mode}/${path}`, () =>
    page.goto(siteUrl(ctx, `/${mode}/${path}`), { waitUntil: 'domcontentloaded', timeout: timeoutMs }),
  );
  if (new URL(page.url()).pathname === '/login') {
    pending?.cancel();
    if (!auth.reused) throw new SessionExpiredError(`open /${mode}/${path}`);
    const fresh = await signInWithForm(ctx, { awaitDashboard: false });
    return openModePage(ctx, fresh, path, onLoad);
  }
  if (!pending) return { auth };
  const call = await step(pending.call, () => pending.done, { detail: httpDetail });
  return { call, auth };
}

/** Lets the page render what it received, for the video and to check the DOM agrees; never fails the check. */
async function settle(ctx: DriverContext, name: string, predicate: string): Promise<boolean> {
  try {
    await ctx.step(name, () => ctx.page.waitForFunction(predicate, { timeout: Math.min(ctx.timeoutMs, 3000) }));
    return true;
  } catch {
    return false;
  }
}

function fail(msg: string, session?: StoredSession): ProcessVerdict {
  return { success: false, msg, session };
}

async function deleteRecords(
  ctx: DriverContext,
  result: ProcessResult<3> | ProcessResult<6>,
  kind: { path: string; api: string; idKey: 'bet_id' | 'out_id'; noun: string },
): Promise<ProcessVerdict> {
  const signed = await signIn(ctx);
  const { call, auth } = await openModePage(ctx, signed, kind.path, { method: 'GET', api: kind.api });
  const list = dataOf(call!, z.array(z.object({ [kind.idKey]: z.string() }).loose()));
  result.has_record = list.length > 0;
  if (!result.has_record) {
    result.description = `No ${kind.noun} to delete`;
    return { success: true, msg: result.description, session: auth.session };
  }
  const mode = modeSlug(ctx);
  const pending = await watchSiteCall(ctx.page, 'POST', `/api/${mode}/${kind.api}/delete`, ctx.timeoutMs);
  const del = await ctx.step(
    pending.call,
    async () => {
      await ctx.page.click('#delete-bets');
      return pending.done;
    },
    { detail: httpDetail },
  );
  const env = envelope(del);
  result.response_timing = del.ms;
  result.status_code = del.status;
  result.result = del.body as ProcessResult<3>['result'];
  const deleted = env.code === 0 ? dataOf(del, z.object({ deleted: z.number() })).deleted : 0;
  result.delete_success = env.code === 0 && deleted === list.length;
  result.description = env.code === 0 ? `Deleted ${deleted} of ${list.length} ${kind.noun}(s)` : env.msg;
  await settle(ctx, 'read delete result', `!!document.getElementById('delete-result')?.textContent`);
  return result.delete_success
    ? { success: true, msg: result.description, session: auth.session }
    : fail(`Delete failed: ${result.description}`, auth.session);
}

export const sandbox4dDriver: SiteDriver = {
  name: 'sandbox-4d',
  processes: {
    // 1 Login Account: always signs in with the account; that is what this point checks.
    1: async (ctx, result) => {
      try {
        const { session } = await signInWithForm(ctx, { awaitDashboard: true });
        result.login_success = true;
        result.msg = 'Login success';
        return { success: true, msg: result.msg, session };
      } catch (err) {
        if (err instanceof LoginFailedError) {
          result.msg = err.message;
          return fail(err.message);
        }
        throw err;
      }
    },

    // 2 Place Bets: reads the draw state, then places two bets through the form.
    2: async (ctx, result) => {
      const signed = await signIn(ctx);
      const { call, auth } = await openModePage(ctx, signed, 'bets', { method: 'GET', api: 'draw' });
      const draw = dataOf(call!, z.object({ draw_id: z.string(), name: z.string(), open: z.boolean() }));
      result.DrawOpen = draw.open;
      await settle(ctx, 'read draw status', `document.getElementById('draw-status')?.textContent !== '…'`);
      if (!draw.open) {
        result.description = `Draw ${draw.draw_id} (${draw.name}) is closed`;
        return fail(`Draw is closed: ${draw.draw_id} ${draw.name}`, auth.session);
      }
      const numbers = betNumbers();
      await ctx.step('fill bet form', async () => {
        await ctx.page.locator('#bet-numbers').fill(numbers.join(','));
      });
      const pending = await watchSiteCall(ctx.page, 'POST', `/api/${modeSlug(ctx)}/bets`, ctx.timeoutMs);
      const bet = await ctx.step(
        pending.call,
        async () => {
          await ctx.page.click('#place-bet');
          return pending.done;
        },
        { detail: httpDetail },
      );
      const env = envelope(bet);
      result.response_timing = bet.ms;
      result.status_code = bet.status;
      result.result = bet.body as ProcessResult<2>['result'];
      if (env.code !== 0) {
        result.description = env.msg;
        if (/closed/i.test(env.msg)) result.DrawOpen = false;
        return fail(`Bet rejected: ${env.msg}`, auth.session);
      }
      const placed = dataOf(bet, z.object({ bet_ids: z.array(z.string()), bets: z.array(PlacedBet) }));
      result.bets = placed.bets;
      result.bet_success = placed.bets.length === numbers.length;
      result.description = `Placed ${placed.bets.length} bet(s) on ${draw.draw_id}: ${placed.bet_ids.join(', ')}`;
      await settle(ctx, 'read bet result', `!!document.getElementById('bet-result')?.textContent`);
      return result.bet_success
        ? { success: true, msg: result.description, session: auth.session }
        : fail(`Only ${placed.bets.length} of ${numbers.length} bets accepted`, auth.session);
    },

    // 3 Delete Bets: deletes the account's open bets, if any.
    3: (ctx, result) => deleteRecords(ctx, result, { path: 'bets/delete', api: 'bets', idKey: 'bet_id', noun: 'bet' }),

    // 4 Check Fix Bets: the draw settings, active and inactive.
    4: async (ctx, result) => {
      const signed = await signIn(ctx);
      const { call, auth } = await openModePage(ctx, signed, 'fix-bets', { method: 'GET', api: 'draw-settings' });
      const rows = dataOf(call!, z.array(DrawSetting));
      result.query_success = true;
      result.draw_settings = rows;
      result.records_cnt = rows.length;
      result.active_cnt = rows.filter((r) => r.status[0]).length;
      result.inactive_cnt = rows.length - result.active_cnt;
      result.description = `${rows.length} draw setting(s): ${result.active_cnt} active, ${result.inactive_cnt} inactive`;
      const shown = await settle(
        ctx,
        'read draw settings table',
        `document.querySelectorAll('#draws-body tr').length > 0`,
      );
      if (!shown && rows.length > 0) result.description += ' (table not rendered)';
      return { success: true, msg: result.description, session: auth.session };
    },

    // 5 Out Setting3: executes the out setting and reads its report.
    5: async (ctx, result) => {
      const signed = await signIn(ctx);
      const { auth } = await openModePage(ctx, signed, 'out-setting3');
      const pending = await watchSiteCall(ctx.page, 'POST', `/api/${modeSlug(ctx)}/out-setting3`, ctx.timeoutMs);
      const run = await ctx.step(
        pending.call,
        async () => {
          await ctx.page.waitForSelector('#run-out-setting', { timeout: ctx.timeoutMs });
          await ctx.page.click('#run-out-setting');
          return pending.done;
        },
        { detail: httpDetail },
      );
      const env = envelope(run);
      result.executed_timing = run.ms;
      result.status_code = run.status;
      const message = (run.body as { message?: unknown }).message;
      result.result = { data: null, message: typeof message === 'string' ? message : env.msg };
      if (env.code !== 0) {
        result.description = env.msg;
        return fail(`Out setting 3 failed: ${env.msg}`, auth.session);
      }
      result.result.data = dataOf(run, OutSetting3Data);
      result.process_success = true;
      result.description = result.result.message;
      await settle(ctx, 'read out setting report', `document.querySelectorAll('#out-body tr').length > 0`);
      return { success: true, msg: result.description, session: auth.session };
    },

    // 6 Delete Bets Out: deletes the out-bets the out setting produced, if any.
    6: (ctx, result) =>
      deleteRecords(ctx, result, { path: 'out-bets/delete', api: 'out-bets', idKey: 'out_id', noun: 'out-bet' }),

    // 7 Out Setting3 Status: closing state and balances.
    7: async (ctx, result) => {
      const signed = await signIn(ctx);
      const { call, auth } = await openModePage(ctx, signed, 'out-setting3/status', {
        method: 'GET',
        api: 'out-setting3/status',
      });
      const s = dataOf(
        call!,
        z.object({
          is_closed: z.boolean(),
          fixed_bets: z.number().int().nonnegative(),
          balance_left: z.number(),
          balance_stat: z.array(BalanceStatRow),
          balance_total: z.tuple([z.number(), z.number(), z.number(), z.number()]),
        }),
      );
      Object.assign(result, s);
      result.description = `${s.is_closed ? 'Closed' : 'Open'}, ${s.fixed_bets} fixed bet(s), balance left ${s.balance_left}`;
      await settle(ctx, 'read balance table', `document.querySelectorAll('#balance-body tr').length > 0`);
      return { success: true, msg: result.description, session: auth.session };
    },

    // 8 Agent Setting: platform status of every agent; normal = enabled on D4, MG and TT.
    8: async (ctx, result) => {
      const signed = await signIn(ctx);
      const { call, auth } = await openModePage(ctx, signed, 'agents', { method: 'GET', api: 'agents' });
      const stat = dataOf(call!, z.array(AgentStat));
      result.query_success = true;
      result.stat = stat;
      result.agents_cnt = stat.length;
      result.normal_cnt = stat.filter((a) => a.D4[0] && a.MG[0] && a.TT[0]).length;
      result.description = `${stat.length} agent(s), ${result.normal_cnt} normal`;
      await settle(ctx, 'read agents table', `document.querySelectorAll('#agents-body tr').length > 0`);
      return { success: true, msg: result.description, session: auth.session };
    },
  },
};

/** Two distinct 4-digit numbers; varied per check so repeated bets look like an agent's. */
function betNumbers(): string[] {
  const a = 1000 + (Date.now() % 9000);
  const b = 1000 + ((a * 7 + 1234) % 9000);
  return [String(a), String(b !== a ? b : a === 9999 ? 1000 : a + 1)];
}
