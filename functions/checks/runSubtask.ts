import { Process } from '../../shared/enums.js';
import { invocationTimeLeft } from '../lib/invocationDeadline.js';
import { logger } from '../lib/logger.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { CounterBatch } from '../lib/db/counters.js';
import { putObject } from '../lib/storage/objects.js';
import { checkerAccount, readAccountSession, saveAccountSession, siteRefs } from '../sites/service.js';
import { getBrowser } from './browser/browserPool.js';
import { type CheckContext, openCheckContext } from './browser/launchBrowser.js';
import { type CheckSession, runCheck } from './browser/runCheck.js';
import { claimBeside, finishSubtask, type SubtaskOutcome } from './engine.js';
import type { CheckMessage } from './queue.js';
import type { CheckMessageTask } from '../../shared/schemas/checkMessage.js';
import { type StoredSubtask, type StoredTask, checkStore } from './store.js';

/** Whole-subtask limit; each driver step has its own shorter timeout inside it. */
export const SUBTASK_TIMEOUT_MS = Number(process.env.CHECK_TIMEOUT_MS ?? 60_000);

/** What a run needs of its task: where it signs in, and the session its login stored. */
type TaskRef = Pick<StoredTask, 'id' | 'site_id' | 'account_id' | 'session_id'>;

async function loadSession(task: TaskRef): Promise<CheckSession | undefined> {
  if (task.session_id === null) return undefined;
  const session = await readAccountSession(task.session_id);
  return session === undefined ? undefined : (JSON.parse(session) as CheckSession);
}

async function saveSession(task: TaskRef, session: CheckSession): Promise<void> {
  const tokenId = await saveAccountSession({
    site_id: task.site_id,
    account_id: task.account_id ?? 0,
    auth_type: session.auth_type,
    session: JSON.stringify(session),
    expire_at: session.expires_at ?? null,
  });
  await checkStore().tasks.update(task.id, { session_id: tokenId });
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
export async function runSubtask(
  message: CheckMessage,
  runId: string,
  hooks: {
    /** Called once the subtask's browser work is over (its checker slot can go), before its storing. */
    onBrowserDone?: () => void;
  } = {},
): Promise<void> {
  const known = message.subtask && { ...message.subtask, operation_id: message.operation_id };
  const claiming = claimBeside(message.subtask_id, runId, known, {
    taskStarted: message.task !== undefined,
    keepForEnd: true,
  });
  claiming.catch(() => {});
  // With the subtask's fields in the message, the run does not wait for its claim: its reads and
  // its browser context go beside it, and the check takes the context (and so touches the site)
  // only once the claim holds. The claim's write took ~37 ms of a busy slot at every change of
  // check (2026-11-29); the context takes ~0.6 s. Without them, the claim reads the row first.
  const basis: RunBasis | null = known ? { ...known, id: message.subtask_id } : ((await claiming)?.sub ?? null);
  if (!basis) return notClaimable(message.subtask_id);
  const claimHolds = () => claiming.then((claim) => claim !== null);
  const opened =
    known &&
    afterClaim(
      claimHolds(),
      getBrowser().then((browser) => openCheckContext(browser)),
    );
  // The claim's follow-ups are applied while the check runs; every way to the end waits for them
  // (the end's counts follow the claim's).
  const claimed = claiming.then((claim) =>
    claim?.followUps.catch((error: unknown) => {
      logger.warn("the claim's kept counts were not moved; the repair recounts them", {
        subtask_id: claim.sub.id,
        error: error as Error,
      });
    }),
  );
  claimed.catch(() => {});
  const finish: Finish = async (outcome, siteName) => {
    const claim = await claiming;
    // Not claimed (a second delivery): its run ended unrun, and nothing of it is stored.
    if (!claim) return;
    await claimed;
    // The end's write also removes the claim's applied entry: one write where there were two.
    const applied = claim.applied();
    await finishSubtask(claim.sub, runId, outcome, { siteName, handOff: true, clears: applied ? [applied] : [] });
  };
  try {
    await execute(
      basis,
      runId,
      { finish, claimHolds },
      readRunInputs(basis, message.task),
      opened,
      hooks.onBrowserDone,
    );
  } catch (error) {
    // A claim refused ends the run unrun; a claim that failed (the store unreachable) throws here,
    // and the message is tried again.
    if (!(await claimHolds())) return notClaimable(message.subtask_id);
    // Storage or browser failure outside the driver: the subtask still ends, with the reason.
    logger.error('subtask failed outside the driver', { subtask_id: basis.id, error: error as Error });
    await finish({ success: false, msg: `Checker error: ${(error as Error).message}` });
  }
}

/** What a run needs of its subtask, known before its claim when the message carries it. */
type RunBasis = Pick<StoredSubtask, 'id' | 'operation_id' | 'task_id' | 'site_id' | 'process' | 'mode'>;

function notClaimable(subtaskId: number): void {
  logger.info('subtask not claimable (duplicate, paused or finished)', { subtask_id: subtaskId });
}

/** Raised in place of a context whose check lost its claim. */
class NotClaimed extends Error {}

/** The context once the claim holds; else it is closed unused and the check ends unrun. */
async function afterClaim(holds: Promise<boolean>, opening: Promise<CheckContext>): Promise<CheckContext> {
  opening.catch(() => {});
  if (await holds.catch(() => false)) return opening;
  await closeUnused(opening);
  throw new NotClaimed('the subtask was not claimed');
}

/** Closes a context opened beside the claim that no check took over. */
async function closeUnused(opened: Promise<CheckContext> | undefined): Promise<void> {
  await opened?.then((context) => context.close()).catch(() => {});
}

/**
 * The attempts of one subtask share this much time (from the claim); a retry starts only while a
 * useful attempt still fits, and all of them end before the reaper (RUNNING_LIMIT_MS, subtask
 * timeout + 60 s) would take the subtask for lost.
 */
export const ATTEMPTS_WINDOW_MS = SUBTASK_TIMEOUT_MS + 30_000;
/** Kept free at the end of the invocation to store the evidence and close the subtask. */
const STORE_MARGIN_MS = 15_000;
/** A retry with less time than this left would only time out again. */
const MIN_ATTEMPT_MS = 10_000;

/** Ends the claimed subtask (finishSubtask), once its claim's follow-ups are applied. */
type Finish = (outcome: SubtaskOutcome, siteName?: string) => Promise<void>;

/**
 * What a run reads before its browser starts: the task and the site (unless the message carries
 * what the run needs of them), the account with its password, the task's session (all but a login)
 * and the checker's config. The step timeout, retries and budgets are the operators' to tune (super
 * config): read per check, cached for seconds.
 */
export async function readRunInputs(
  sub: Pick<StoredSubtask, 'task_id' | 'site_id' | 'process'>,
  sent?: CheckMessageTask,
) {
  const [task, site, { checker }] = await Promise.all([
    sent
      ? ({
          id: sub.task_id,
          site_id: sub.site_id,
          account_id: sent.account_id,
          session_id: sent.session_id,
        } satisfies TaskRef)
      : checkStore().tasks.get(sub.task_id),
    sent?.site ? { id: sub.site_id, ...sent.site } : siteRefs([sub.site_id]).then((refs) => refs.get(sub.site_id)),
    getSystemConfig(),
  ]);
  const isLogin = sub.process === Process.values.Login;
  const [account, session] = await Promise.all([
    task?.account_id ? checkerAccount(task.account_id) : undefined,
    task && !isLogin ? loadSession(task) : undefined,
  ]);
  return { task, site, account, session, checker };
}

async function execute(
  sub: RunBasis,
  runId: string,
  { finish, claimHolds }: { finish: Finish; claimHolds: () => Promise<boolean> },
  inputs: ReturnType<typeof readRunInputs>,
  opened: Promise<CheckContext> | undefined,
  onBrowserDone?: () => void,
): Promise<void> {
  const claimedAt = Date.now();
  const { task, site, account, session, checker } = await inputs.catch(async (error: unknown) => {
    await closeUnused(opened);
    throw error;
  });
  if (!task || !site || !account) {
    await closeUnused(opened);
    await finish({ success: false, msg: 'The site or its account no longer exists' });
    return;
  }
  const left = invocationTimeLeft();
  const deadline = Math.min(
    claimedAt + ATTEMPTS_WINDOW_MS,
    left === undefined ? Number.POSITIVE_INFINITY : Date.now() + left - STORE_MARGIN_MS,
  );

  // Each attempt in a fresh browser context, with its own video, raw log and timings; an
  // attempt's files are stored while the next one runs, so a retry starts at once.
  const stored: Promise<StoredEvidence>[] = [];
  const failures: string[] = [];
  let run: Awaited<ReturnType<typeof runCheck>>;
  let attempt = 0;
  for (;;) {
    attempt++;
    run = await runCheck({
      browser: await getBrowser(),
      // The first attempt takes the context opened beside the claim; a retry opens a fresh one.
      opened: attempt === 1 ? opened : undefined,
      site,
      account: { user: account.user, pwd: account.pwd },
      mode: sub.mode,
      process: sub.process,
      session,
      timeoutMs: Math.max(1000, Math.min(SUBTASK_TIMEOUT_MS, deadline - Date.now())),
      stepTimeoutMs: checker.step_timeout_seconds * 1000,
      record: true,
    });
    // A run that started beside its claim is kept only once the claim holds.
    if (attempt === 1 && opened && !(await claimHolds())) return;
    stored.push(storeEvidence(sub, runId, account.id, run, attempt));
    const { outcome } = run;
    if (outcome.success) break;
    failures.push(outcome.msg);
    const retryable = outcome.failureKind !== undefined && checker.retry_on.includes(outcome.failureKind);
    if (!retryable || attempt > checker.retries || deadline - Date.now() < MIN_ATTEMPT_MS) break;
    logger.info('retrying subtask', { subtask_id: sub.id, attempt, kind: outcome.failureKind, msg: outcome.msg });
  }

  onBrowserDone?.();
  const { outcome } = run;
  const [evidence] = await Promise.all([
    Promise.all(stored),
    sub.process === Process.values.Login && outcome.success && outcome.session
      ? saveSession(task, outcome.session)
      : undefined,
  ]);
  // The evidence rows' counts move while the end is written (neither reads the other).
  await Promise.all([
    finish(subtaskOutcome(outcome, attempt, failures, checker.time_budget_ms), site.name),
    ...evidence.map(({ counted }) =>
      counted.catch((error: unknown) =>
        logger.warn("the evidence rows' kept counts were not moved; the repair recounts them", {
          subtask_id: sub.id,
          error: error as Error,
        }),
      ),
    ),
  ]);
}

/**
 * What the subtask ends with: a pass after a failed attempt is flaky (and says what failed first), a
 * pass slower than its process's budget is degraded; the duration is the deciding attempt's.
 */
export function subtaskOutcome(
  outcome: { success: boolean; msg: string; durationMs: number; process: number },
  attempts: number,
  earlierFailures: readonly string[],
  budgets: Partial<Record<string, number>>,
): SubtaskOutcome {
  const flaky = outcome.success && attempts > 1;
  const budget = budgets[String(outcome.process)];
  const degraded = outcome.success && budget !== undefined && outcome.durationMs > budget;
  const notes = [
    flaky
      ? `passed on attempt ${attempts} (${earlierFailures.map((m, i) => `attempt ${i + 1}: ${m}`).join('; ')})`
      : '',
    degraded ? `slow: ${outcome.durationMs} ms over the ${budget} ms budget` : '',
  ].filter(Boolean);
  return {
    success: outcome.success,
    msg: notes.length ? `${outcome.msg}; ${notes.join('; ')}` : outcome.msg,
    attempts,
    flaky,
    degraded,
    duration_ms: outcome.durationMs,
  };
}

type Bet = { bet_id: string; number: string; big: number; small: number };

/** An attempt's evidence once its rows are written: their kept counts still moving. */
interface StoredEvidence {
  counted: Promise<void>;
}

/**
 * Stores what a run left: the files (video, screenshot of a failure), then the check log, raw
 * log, video row, check result and uploaded bets. Ids are taken first so every row is written
 * once with its links, all in parallel: the store work of a subtask is a few round trips, not
 * a dozen in a row. The files go first, so a row never points at a file that is not there. It
 * answers once the rows are written; their kept counts move beside the subtask's end.
 */
async function storeEvidence(
  sub: RunBasis,
  runId: string,
  accountId: number,
  { outcome, video, screenshot }: Awaited<ReturnType<typeof runCheck>>,
  attempt: number,
): Promise<StoredEvidence> {
  const prefix = `checks/${sub.operation_id}/${sub.task_id}/${sub.id}-${runId.slice(0, 8)}-a${attempt}`;
  const videoKey = video ? `${prefix}.${video.contentType.includes('webm') ? 'webm' : 'mp4'}` : null;
  const screenshotKey = screenshot ? `${prefix}.png` : null;
  const [logId, rawId, videoId, resultId] = await Promise.all([
    checkStore().checkLogs.newId(),
    checkStore().rawLogs.newId(),
    video ? checkStore().videos.newId() : null,
    checkStore().checkResults.newId(),
    screenshot && screenshotKey ? putObject(screenshotKey, screenshot, 'image/png') : undefined,
    video && videoKey ? putObject(videoKey, video.bytes, video.contentType) : undefined,
  ]);

  const bets = (outcome.result as { bets?: Bet[] }).bets ?? [];
  const store = checkStore();
  // The four rows go in one BatchWriteItem (their ids are fresh), and their counts share their
  // group's items (store.ts EVIDENCE_COUNTS): moved once, after them.
  const rows = await Promise.all([
    store.checkLogs.prepare(
      {
        process: sub.process,
        mode: sub.mode,
        task_id: sub.task_id,
        subtask_id: sub.id,
        site_id: sub.site_id,
        account_id: accountId,
        success: outcome.success,
        raw_log_id: rawId,
        ...logFields(outcome.result as Record<string, unknown>),
      },
      logId,
    ),
    store.rawLogs.prepare(
      {
        process: sub.process,
        business_id: logId,
        subtask_id: sub.id,
        success: outcome.success,
        remark: outcome.msg,
        result: outcome.result,
        steps: outcome.steps,
        console_errors: outcome.consoleErrors,
        failed_requests: outcome.failedRequests,
        failure_kind: outcome.failureKind ?? null,
        attempt,
        duration_ms: outcome.durationMs,
        video_id: videoId,
        screenshot_key: screenshotKey,
      },
      rawId,
    ),
    ...(video && videoKey && videoId !== null
      ? [
          store.videos.prepare(
            {
              process: sub.process,
              size: video.bytes.length,
              key: videoKey,
              content_type: video.contentType,
              duration_ms: video.durationMs,
              raw_log_id: rawId,
              subtask_id: sub.id,
            },
            videoId,
          ),
        ]
      : []),
    store.checkResults.prepare({ subtask_id: sub.id, raw_log_id: rawId }, resultId),
  ]);
  const counts = new CounterBatch();
  const written = await Promise.allSettled([
    store.createPrepared(rows, counts),
    bets.length
      ? store.betUploads.createMany(
          bets.map((bet) => ({
            check_log_id: logId,
            subtask_id: sub.id,
            site_id: sub.site_id,
            mode: sub.mode,
            bet_id: bet.bet_id,
            number: bet.number,
            big: bet.big,
            small: bet.small,
          })),
        )
      : undefined,
  ]);
  // The rows' counts once they are written, even when the bets failed (createPrepared adds them to
  // the batch only once the rows are stored).
  const counted = counts.flush();
  const failed = written.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await counted;
    throw failed.reason;
  }
  return { counted };
}
