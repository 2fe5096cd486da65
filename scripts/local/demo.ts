import { OperationName, Process, TestMode } from '../../shared/enums.js';

/** A demo site: its accounts all use the sandbox password unless they show a failure. */
export interface DemoSite {
  name: string;
  accounts: string[];
  /** Shown disabled in the Sites list (and refused by checks). */
  disabled?: boolean;
  /** A control site (issue 45): known to be healthy, so its failing means the checker is at fault. */
  control?: boolean;
}

/** The sandbox accepts any username with this password (docs/site-driver.md). */
export const DEMO_ACCOUNT_PASSWORD = 'sandbox123';

// What a first look at the console should show: sites that pass, one whose account the site
// locks (a failed check with its reason) and one that is switched off.
export const DEMO_SITES: readonly DemoSite[] = [
  { name: 'Sandbox Agent A', accounts: ['agent01', 'agent02'], control: true },
  { name: 'Sandbox Agent B', accounts: ['agent03'] },
  { name: 'Sandbox Locked Agent', accounts: ['locked01'] },
  { name: 'Sandbox Disabled Agent', accounts: ['agent04'], disabled: true },
];

/** The demo check: a short one over the passing and the locked site, so Operations is not empty. */
export const DEMO_CHECK = {
  sites: ['Sandbox Agent A', 'Sandbox Locked Agent'],
  points: [
    { point: Process.values.Login, modes: [TestMode.values.D4] },
    { point: Process.values.CheckFixBets, modes: [TestMode.values.D4] },
  ],
} as const;

/**
 * The demo's weekly auto-check rule: the live demo sites, twice every day, so the schedule
 * calendar, the home page's Next runs and, after its first slots, the dashboard show it at work.
 */
export const DEMO_RULE = {
  name: 'Demo weekly check',
  sites: ['Sandbox Agent A', 'Sandbox Agent B', 'Sandbox Locked Agent'],
  points: DEMO_CHECK.points,
  times: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, times: ['09:30', '21:30'] })),
} as const;

const log = (line: string) => {
  if (process.env.LOG_LEVEL !== 'WARN') console.log(`[demo] ${line}`);
};

/**
 * The demo sites, through the sites service. A name already taken is left alone, so a seed
 * that runs again (e.g. after a crash between two sites) completes instead of duplicating.
 * Returns the ids by name.
 */
export async function seedDemoSites(sandboxUrl: string): Promise<Map<string, number>> {
  // Feature modules read the environment when loaded: imported only once the stack has set it.
  const { createSite, updateSite, allSites } = await import('../../functions/sites/service.js');
  const { SiteExistsError } = await import('../../functions/sites/errors.js');
  const ids = new Map<string, number>();
  for (const demo of DEMO_SITES) {
    try {
      const site = await createSite({
        name: demo.name,
        url: sandboxUrl,
        accounts: demo.accounts.map((user) => ({ user, pwd: DEMO_ACCOUNT_PASSWORD })),
        control: demo.control ?? false,
      });
      if (demo.disabled) await updateSite(site.id, { enable: false });
      ids.set(demo.name, site.id);
    } catch (error) {
      if (!(error instanceof SiteExistsError)) throw error;
    }
  }
  for (const s of await allSites())
    if (!ids.has(s.name) && DEMO_SITES.some((d) => d.name === s.name)) ids.set(s.name, s.id);
  log(`${DEMO_SITES.length} sandbox sites at ${sandboxUrl}`);
  return ids;
}

/** Starts the demo check; it runs in the background once the checker consumes its queue. */
export async function startDemoCheck(siteIds: Map<string, number>): Promise<void> {
  const { startCheck } = await import('../../functions/checks/start.js');
  const { userStore } = await import('../../functions/users/store.js');
  const admin = await userStore().findByUsername('admin');
  const wanted = DEMO_CHECK.sites.map((name) => siteIds.get(name)).filter((id): id is number => id !== undefined);
  if (!wanted.length) return;
  const op = await startCheck({
    siteIds: wanted,
    points: DEMO_CHECK.points.map((p) => ({ point: p.point, modes: [...p.modes] })),
    name: OperationName.values.MultiSites,
    operatorId: admin?.id ?? null,
    remark: 'Demo check',
  });
  log(`demo check started (operation ${op.id})`);
}

/** The demo rule, once: a rule of that name already there (a later start) is left as it is. */
export async function seedDemoRule(siteIds: Map<string, number>): Promise<void> {
  const { createRule, listRules } = await import('../../functions/autoCheck/service.js');
  const { RuleBody } = await import('../../shared/schemas/autoCheck.js');
  const { emptyListQuery } = await import('../../shared/listQuery.js');
  const existing = await listRules(emptyListQuery({ page_size: 0 }));
  if (existing.result.some((r) => r.name === DEMO_RULE.name)) return;
  const sites = DEMO_RULE.sites.map((name) => siteIds.get(name)).filter((id): id is number => id !== undefined);
  if (!sites.length) return;
  const rule = await createRule(
    RuleBody.parse({
      name: DEMO_RULE.name,
      sites,
      points: DEMO_RULE.points.map((p) => ({ point: p.point, modes: [...p.modes] })),
      times: DEMO_RULE.times.map((d) => ({ day: d.day, times: [...d.times] })),
    }),
    null,
  );
  log(`demo rule "${rule.name}" (every day at ${DEMO_RULE.times[0].times.join(' and ')})`);
}

async function seedSandboxDemo(): Promise<void> {
  const url = process.env.SANDBOX_SITE_URL;
  if (!url) {
    console.warn('[demo] the sandbox site is not running: no demo sites');
    return;
  }
  const ids = await seedDemoSites(url);
  if (process.env.DEMO_CHECK !== '0') await startDemoCheck(ids);
  await seedDemoRule(ids);
}

/** The demo bank logins of the sandbox portals (docs/bank-driver.md), polled every 10 s all day. */
export const DEMO_BANK_ACCOUNTS = [
  { bank_name: 1 as const, user: 'kbz.demo', holder: 'Demo KBZ holder' },
  { bank_name: 2 as const, user: 'aya.demo', holder: 'Demo AYA holder' },
];
export const DEMO_BANK_INTERVAL_S = 10;

/**
 * A KBZ and an AYA account against the sandbox banks, enabled, all day, at a short interval, and
 * initialised (their sub-accounts listed), so statements arrive within a minute of `npm start`.
 */
async function seedDemoBanks(): Promise<void> {
  if (!process.env.SANDBOX_BANK_URL) {
    console.warn('[demo] the sandbox banks are not running: no demo bank accounts');
    return;
  }
  const { createAccount, updateAccount, refreshAccount } = await import('../../functions/bank/service.js');
  const { BankAccountExistsError } = await import('../../functions/bank/errors.js');
  for (const demo of DEMO_BANK_ACCOUNTS) {
    try {
      const account = await createAccount({ bank_name: demo.bank_name, user: demo.user, pwd: DEMO_ACCOUNT_PASSWORD });
      await updateAccount(account.id, {
        interval: DEMO_BANK_INTERVAL_S,
        range: [[0, 86_400]],
        holder: demo.holder,
        remark: 'Demo account on the sandbox bank',
        // Its notifications go to the sandbox webhook receiver (GET <receiver>/sandbox/hooks/<user>/requests).
        ...(process.env.SANDBOX_WEBHOOK_URL
          ? { webhook: `${process.env.SANDBOX_WEBHOOK_URL}/hooks/${demo.user}`, api_key: `demo-key-${demo.user}` }
          : {}),
      });
      await refreshAccount(account.id).catch((error) => console.warn(`[demo] init of ${demo.user} failed`, error));
    } catch (error) {
      if (!(error instanceof BankAccountExistsError)) throw error;
    }
  }
  log(`${DEMO_BANK_ACCOUNTS.length} demo bank accounts at ${process.env.SANDBOX_BANK_URL}`);
}

/** The sandbox Bot API accepts any token of BotFather's form; this one exists nowhere else. */
export const DEMO_TELEGRAM = { token: '1000000001:AAE-patrol_demo_sandbox_bot_token', checkChat: '-1000000000001' };

/**
 * Telegram for the demo: check notifications to a sandbox chat, so the demo check's incident (the
 * locked site's) shows up on Telegram with its buttons (GET <sandbox>/sandbox/messages). Only when TELEGRAM_API_URL is the
 * sandbox: a real Bot API never gets the demo token.
 */
async function seedTelegramDemo(): Promise<void> {
  const sandbox = process.env.SANDBOX_TELEGRAM_URL;
  if (!sandbox || process.env.TELEGRAM_API_URL !== sandbox) return;
  const { saveTelegramSettings } = await import('../../functions/notifications/telegram/settings.js');
  const { userStore } = await import('../../functions/users/store.js');
  const admin = await userStore().findByUsername('admin');
  if (!admin) return;
  await saveTelegramSettings(
    { id: admin.id, username: admin.username, nickname: admin.nickname, role: admin.role },
    {
      bot_token: DEMO_TELEGRAM.token,
      check_chat_id: DEMO_TELEGRAM.checkChat,
      bank_chat_id: '',
      check_enabled: true,
      bank_enabled: false,
      per_subtask: false,
    },
  );
  log(`Telegram: check notifications to sandbox chat ${DEMO_TELEGRAM.checkChat} (${sandbox}/sandbox/messages)`);
}

/**
 * Single sign-on against the sandbox OIDC provider (scripts/sandbox/oidc): the login page shows
 * "Sign in with Sandbox SSO", whose form signs in `operator1` (an operator made here, whose Patrol
 * password nobody knows: SSO only) with the sandbox's password (DATA_DIR/sandbox-oidc-password.txt);
 * `stranger` is refused. The provider's MFA switch counts as
 * the second factor (amr `mfa`).
 */
async function seedSsoDemo(): Promise<void> {
  const issuer = process.env.SANDBOX_OIDC_URL;
  if (!issuer) return;
  const { SANDBOX_OIDC_CLIENT } = await import('../sandbox/oidc/server.js');
  const { saveClientSecret } = await import('../../functions/sso/service.js');
  const { readSystemConfigState, saveSystemConfig } = await import('../../functions/systemConfig/service.js');
  const { createUser } = await import('../../functions/users/service.js');
  const { userStore } = await import('../../functions/users/store.js');
  const { randomBytes } = await import('node:crypto');
  const admin = await userStore().findByUsername('admin');
  if (!admin) return;
  const actor = { id: admin.id, username: admin.username, nickname: admin.nickname, role: admin.role };
  if (!(await userStore().findByUsername('operator1')))
    await createUser({
      username: 'operator1',
      nickname: 'Operator One',
      password: randomBytes(18).toString('base64url'),
      role: 'operator',
    });
  await saveClientSecret(actor, { client_secret: SANDBOX_OIDC_CLIENT.secret });
  const { document } = await readSystemConfigState();
  await saveSystemConfig(actor, {
    ...document,
    sso: {
      enabled: true,
      display_name: 'Sandbox SSO',
      issuer,
      client_id: SANDBOX_OIDC_CLIENT.id,
      username_claim: 'preferred_username',
      mfa_claim: 'amr',
      mfa_values: ['mfa'],
    },
  });
  log(
    `single sign-on: "Sign in with Sandbox SSO" against ${issuer} (account operator1; password in DATA_DIR/sandbox-oidc-password.txt)`,
  );
}

/**
 * Demo data for a new local store (DEMO != '0'): each entry adds one area's sample rows
 * through the features' own services. Run in order, after the admin user exists, and only
 * on an empty store so that a restart never duplicates them.
 */
export const demoSeeds: Array<() => Promise<void>> = [seedTelegramDemo, seedSandboxDemo, seedDemoBanks, seedSsoDemo];
