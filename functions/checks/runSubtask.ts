import { Process } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { putObject } from '../lib/storage/objects.js';
import { siteAccounts, siteTokens, sites } from '../sites/store.js';
import { getBrowser } from './browser/browserPool.js';
import { type CheckSession, runCheck } from './browser/runCheck.js';
import { claimSubtask, finishSubtask } from './engine.js';
import type { CheckMessage } from './queue.js';
import {
  type StoredSubtask,
  type StoredTask,
  betUploads,
  checkLogs,
  checkResults,
  rawLogs,
  tasks,
  videos,
} from './store.js';

/** Whole-subtask limit; each driver step has its own shorter timeout inside it. */
export const SUBTASK_TIMEOUT_MS = Number(process.env.CHECK_TIMEOUT_MS ?? 60_000);

async function loadSession(task: StoredTask): Promise<CheckSession | undefined> {
  if (task.session_id === null) return undefined;
  const token = await siteTokens.get(task.session_id);
  if (!token || (token.expire_at !== null && token.expire_at < Date.now())) return undefined;
  return JSON.parse(await decryptSecret(token.token_enc)) as CheckSession;
}

async function saveSession(task: StoredTask, session: CheckSession): Promise<void> {
  const token = await siteTokens.create({
    site_id: task.site_id,
    account_id: task.account_id ?? 0,
    auth_type: session.auth_type,
    token_enc: await encryptSecret(JSON.stringify(session)),
    expire_at: session.expires_at ?? null,
  });
  await tasks.update(task.id, { session_id: token.id });
}

/** Log-row fields of a process result; the bets of a place-bet check become rows of their own. */
function logFields(result: Record<string, unknown>): Record<string, unknown> {
  const { bets: _bets, ...fields } = result;
  return fields;
}

/**
 * Runs one subtask end to end: claim it, drive the browser through the site, store the video,
 * the typed check log, the raw log and the check result, then close it. A second delivery of
 * the same message finds it claimed and does nothing, so results are never doubled.
 */
export async function runSubtask(message: CheckMessage, runId: string): Promise<void> {
  const sub = await claimSubtask(message.subtask_id, runId);
  if (!sub) {
    logger.info('subtask not claimable (duplicate, paused or finished)', { subtask_id: message.subtask_id });
    return;
  }
  try {
    await execute(sub, runId);
  } catch (error) {
    // Storage or browser failure outside the driver: the subtask still ends, with the reason.
    logger.error('subtask failed outside the driver', { subtask_id: sub.id, error: error as Error });
    await finishSubtask(sub, runId, { success: false, msg: `Checker error: ${(error as Error).message}` });
  }
}

async function execute(sub: StoredSubtask, runId: string): Promise<void> {
  const task = await tasks.get(sub.task_id);
  const site = await sites.getMany([sub.site_id], { includeDeleted: true }).then((r) => r[0]);
  const account = task?.account_id ? await siteAccounts.get(task.account_id) : undefined;
  if (!task || !site || !account) {
    await finishSubtask(sub, runId, { success: false, msg: 'The site or its account no longer exists' });
    return;
  }
  const isLogin = sub.process === Process.values.Login;
  const { outcome, video, screenshot } = await runCheck({
    browser: await getBrowser(),
    site: { id: site.id, name: site.name, url: site.url },
    account: { user: account.user, pwd: await decryptSecret(account.pwd_enc) },
    mode: sub.mode,
    process: sub.process,
    session: isLogin ? undefined : await loadSession(task),
    timeoutMs: SUBTASK_TIMEOUT_MS,
    record: true,
  });

  const prefix = `checks/${sub.operation_id}/${sub.task_id}/${sub.id}-${runId.slice(0, 8)}`;
  const log = await checkLogs.create({
    process: sub.process,
    mode: sub.mode,
    task_id: sub.task_id,
    subtask_id: sub.id,
    site_id: sub.site_id,
    account_id: account.id,
    success: outcome.success,
    raw_log_id: null,
    ...logFields(outcome.result as Record<string, unknown>),
  });
  let screenshotKey: string | null = null;
  if (screenshot) {
    screenshotKey = `${prefix}.png`;
    await putObject(screenshotKey, screenshot, 'image/png');
  }
  const raw = await rawLogs.create({
    process: sub.process,
    business_id: log.id,
    subtask_id: sub.id,
    success: outcome.success,
    remark: outcome.msg,
    result: outcome.result,
    steps: outcome.steps,
    console_errors: outcome.consoleErrors,
    video_id: null,
    screenshot_key: screenshotKey,
  });
  if (video) {
    const ext = video.contentType.includes('webm') ? 'webm' : 'mp4';
    const key = `${prefix}.${ext}`;
    await putObject(key, video.bytes, video.contentType);
    const row = await videos.create({
      process: sub.process,
      size: video.bytes.length,
      key,
      content_type: video.contentType,
      duration_ms: video.durationMs,
      raw_log_id: raw.id,
      subtask_id: sub.id,
    });
    await rawLogs.update(raw.id, { video_id: row.id });
  }
  await checkLogs.update(log.id, { raw_log_id: raw.id });
  await checkResults.create({ subtask_id: sub.id, raw_log_id: raw.id });
  const bets = (outcome.result as { bets?: { bet_id: string; number: string; big: number; small: number }[] }).bets;
  for (const bet of bets ?? []) {
    await betUploads.create({
      check_log_id: log.id,
      subtask_id: sub.id,
      site_id: sub.site_id,
      mode: sub.mode,
      bet_id: bet.bet_id,
      number: bet.number,
      big: bet.big,
      small: bet.small,
    });
  }
  if (isLogin && outcome.success && outcome.session) await saveSession(task, outcome.session);
  await finishSubtask(sub, runId, { success: outcome.success, msg: outcome.msg });
}
