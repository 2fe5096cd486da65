import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type {
  AttemptEvidence,
  BetUpload,
  CheckLog,
  CheckResult,
  EngineEvent,
  Operation,
  ProcessGroup,
  RawLog,
  Subtask,
  SubtaskAttempt,
  SubtaskComparison,
  SubtaskEvidence,
  Task,
  Video,
} from '../../shared/schemas/checks.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { NotFoundError } from '../lib/errors.js';
import { objectUrl } from '../lib/storage/objects.js';
import { accountRefs, siteRefs } from '../sites/service.js';
import { userRefs } from '../users/refs.js';
import {
  type StoredCheckLog,
  type StoredOperation,
  type StoredRawLog,
  type StoredSubtask,
  type StoredTask,
  type StoredVideo,
  checkStore,
} from './store.js';
import { OperationNotFoundError, RawLogNotFoundError, SubtaskNotFoundError, TaskNotFoundError } from './errors.js';

export { OperationNotFoundError, RawLogNotFoundError, SubtaskNotFoundError, TaskNotFoundError };

// Read models: stored rows joined with the names the screens show. Names are looked up per
// page (one batch read per referenced entity), so renames show everywhere at once.

const withPage = async <S, T>(page: ListOutcome<S>, map: (rows: S[]) => Promise<T[]>): Promise<ListOutcome<T>> => ({
  ...page,
  result: await map(page.result),
});

async function presentOperations(rows: StoredOperation[]): Promise<Operation[]> {
  const [users, siteInfo] = await Promise.all([
    userRefs(rows.map((r) => r.operator_id)),
    siteRefs(rows.map((r) => r.site_id)),
  ]);
  return rows.map(({ operator_id, site_id, open: _open, ...r }) => {
    const site = site_id === null ? undefined : siteInfo.get(site_id);
    return { ...r, operator: users.get(operator_id) ?? null, site: site ? { id: site.id, name: site.name } : null };
  });
}

/**
 * Each task's subtasks Running now: a task's running count is derived when read, not kept (issue 44:
 * a claim is one write). One read of the Running partition, which the checkers' concurrency bounds,
 * and none when no task of the page is running.
 */
async function runningByTask(rows: StoredTask[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!rows.some((r) => r.status === TaskStatus.values.Running)) return counts;
  const running = await checkStore().subtasks.list(
    emptyListQuery({ page_size: 0, filters: { status: { kind: 'enum', values: [RunStatus.values.Running] } } }),
  );
  for (const s of running.result) counts.set(s.task_id, (counts.get(s.task_id) ?? 0) + 1);
  return counts;
}

async function presentTasks(rows: StoredTask[]): Promise<Task[]> {
  const [users, siteInfo, accounts, running] = await Promise.all([
    userRefs(rows.map((r) => r.creator_id)),
    siteRefs(rows.map((r) => r.site_id)),
    accountRefs(rows.map((r) => r.account_id)),
    runningByTask(rows),
  ]);
  return rows.map(({ creator_id, site_id, account_id, session_id: _s, ...r }) => ({
    ...r,
    task_running: running.get(r.id) ?? 0,
    site: siteInfo.get(site_id) ?? null,
    account: account_id === null ? null : (accounts.get(account_id) ?? null),
    creator: users.get(creator_id) ?? null,
  }));
}

async function presentSubtasks(rows: StoredSubtask[]): Promise<Subtask[]> {
  const siteInfo = await siteRefs(rows.map((r) => r.site_id));
  return rows.map(({ site_id, run_id: _r, start_event_id: _e, ...r }) => {
    const site = siteInfo.get(site_id);
    // Rows from before retries have no outcome fields.
    return {
      ...r,
      attempts: r.attempts ?? null,
      flaky: r.flaky ?? false,
      degraded: r.degraded ?? false,
      duration_ms: r.duration_ms ?? null,
      site: site ? { id: site.id, name: site.name } : null,
    };
  });
}

export async function listOperations(query: ListQuery): Promise<ListOutcome<Operation>> {
  return withPage(await checkStore().operations.list(query), presentOperations);
}

export async function getOperationRow(id: number): Promise<StoredOperation> {
  const op = await checkStore().operations.get(id);
  if (!op) throw new OperationNotFoundError(`Operation ${id} does not exist`);
  return op;
}

export async function getOperation(id: number): Promise<Operation> {
  return (await presentOperations([await getOperationRow(id)]))[0];
}

/** GET /operations/{id}/tasks: the operation with its tasks and their subtask counts. */
export async function operationTasks(id: number): Promise<{ operation: Operation; tasks: Task[] }> {
  const operation = await getOperation(id);
  const rows = await checkStore().tasks.all({ scope: { operation_id: id } });
  return { operation, tasks: await presentTasks(rows) };
}

export async function listTasks(query: ListQuery): Promise<ListOutcome<Task>> {
  return withPage(await checkStore().tasks.list(query), presentTasks);
}

export async function getTaskRow(id: number): Promise<StoredTask> {
  const task = await checkStore().tasks.get(id);
  if (!task) throw new TaskNotFoundError(`Task ${id} does not exist`);
  return task;
}

/** A task with its subtasks grouped by process, each group with its own counts. */
export async function getTask(id: number): Promise<Task> {
  const row = await getTaskRow(id);
  const [task] = await presentTasks([row]);
  const subs = await presentSubtasks(await checkStore().subtasks.all({ scope: { task_id: id } }));
  const groups = new Map<number, ProcessGroup>();
  for (const s of subs) {
    const g = groups.get(s.process) ?? {
      process: s.process,
      tasks: [],
      task_failed: 0,
      task_running: 0,
      task_total: 0,
    };
    g.tasks.push(s);
    g.task_total++;
    if (s.status === RunStatus.values.Failed) g.task_failed++;
    if (s.status === RunStatus.values.Running) g.task_running++;
    groups.set(s.process, g);
  }
  return { ...task, subtasks: [...groups.values()].sort((a, b) => a.process - b.process) };
}

export async function listSubtasks(query: ListQuery): Promise<ListOutcome<Subtask>> {
  return withPage(await checkStore().subtasks.list(query), presentSubtasks);
}

async function presentVideos(rows: StoredVideo[]): Promise<Video[]> {
  return Promise.all(rows.map(async ({ key, ...v }) => ({ ...v, url: key ? await objectUrl(key) : null })));
}

async function presentRawLogs(rows: StoredRawLog[]): Promise<RawLog[]> {
  const videoRows = await checkStore().videos.getMany(
    rows.map((r) => r.video_id).filter((i): i is number => i !== null),
  );
  const videoById = new Map((await presentVideos(videoRows)).map((v) => [v.id, v]));
  return Promise.all(
    rows.map(async ({ video_id, screenshot_key, ...r }) => ({
      ...r,
      video: video_id === null ? null : (videoById.get(video_id) ?? null),
      screenshot_url: screenshot_key ? await objectUrl(screenshot_key) : null,
    })),
  );
}

export async function listRawLogs(query: ListQuery): Promise<ListOutcome<RawLog>> {
  return withPage(await checkStore().rawLogs.list(query), presentRawLogs);
}

export async function getRawLog(id: number): Promise<RawLog> {
  const row = await checkStore().rawLogs.get(id);
  if (!row) throw new RawLogNotFoundError(`Raw log ${id} does not exist`);
  return (await presentRawLogs([row]))[0];
}

/** The raw log of a check log (its business id). */
export async function rawLogByBusiness(businessId: number): Promise<RawLog> {
  const [row] = await checkStore().rawLogs.all({ scope: { business_id: businessId } });
  if (!row) throw new RawLogNotFoundError(`No raw log for check log ${businessId}`);
  return (await presentRawLogs([row]))[0];
}

export async function listVideos(query: ListQuery): Promise<ListOutcome<Video>> {
  return withPage(await checkStore().videos.list(query), presentVideos);
}

export async function subtaskCheckResults(subtaskId: number): Promise<CheckResult[]> {
  if (!(await checkStore().subtasks.get(subtaskId)))
    throw new SubtaskNotFoundError(`Subtask ${subtaskId} does not exist`);
  const results = await checkStore().checkResults.all({ scope: { subtask_id: subtaskId } });
  const logs = new Map(
    (await presentRawLogs(await checkStore().rawLogs.getMany(results.map((r) => r.raw_log_id)))).map((l) => [l.id, l]),
  );
  return results
    .map((r) => ({
      id: r.id,
      subtask_id: r.subtask_id,
      created_at: r.created_at,
      raw_log: logs.get(r.raw_log_id) ?? null,
    }))
    .sort((a, b) => b.created_at - a.created_at);
}

async function presentCheckLogs(rows: StoredCheckLog[]): Promise<CheckLog[]> {
  const [siteInfo, accounts] = await Promise.all([
    siteRefs(rows.map((r) => r.site_id)),
    accountRefs(rows.map((r) => r.account_id)),
  ]);
  return rows.map(({ site_id, account_id, ...r }) => {
    const site = siteInfo.get(site_id);
    const user = account_id === null ? undefined : accounts.get(account_id)?.user;
    return { ...r, site: site ? { id: site.id, name: site.name } : null, account: user ? { user } : null };
  });
}

export async function listCheckLogs(process: number, query: ListQuery): Promise<ListOutcome<CheckLog>> {
  if (!Process.has(process)) throw new NotFoundError(`Unknown log kind`);
  return withPage(await checkStore().checkLogs.list(query, { scope: { process } }), presentCheckLogs);
}

export async function listBetUploads(query: ListQuery): Promise<ListOutcome<BetUpload>> {
  return withPage(await checkStore().betUploads.list(query), async (rows) => {
    const siteInfo = await siteRefs(rows.map((r) => r.site_id));
    return rows.map(({ site_id, ...r }) => {
      const site = siteInfo.get(site_id);
      return { ...r, site: site ? { name: site.name } : null };
    });
  });
}

export async function listEngineEvents(query: ListQuery): Promise<ListOutcome<EngineEvent>> {
  return checkStore().engineEvents.list(query);
}

// Attempts, evidence and the compare view (docs/check-engine.md "Retries" and "Evidence").

async function getSubtaskRow(id: number): Promise<StoredSubtask> {
  const sub = await checkStore().subtasks.get(id);
  if (!sub) throw new SubtaskNotFoundError(`Subtask ${id} does not exist`);
  return sub;
}

/** Every attempt's raw log, oldest first, with its evidence. */
async function attemptsOf(subtaskId: number): Promise<AttemptEvidence[]> {
  const rows = await presentRawLogs(await checkStore().rawLogs.all({ scope: { subtask_id: subtaskId } }));
  return rows
    .sort((a, b) => (a.attempt ?? 1) - (b.attempt ?? 1) || a.created_at - b.created_at)
    .map((r, i) => ({
      // A raw log from before retries is its subtask's one attempt.
      attempt: r.attempt ?? i + 1,
      success: r.success,
      msg: r.remark,
      failure_kind: r.failure_kind ?? null,
      duration_ms: r.duration_ms ?? null,
      created_at: r.created_at,
      raw_log_id: r.id,
      steps: r.steps ?? [],
      video: r.video,
      screenshot_url: r.screenshot_url,
      console_errors: r.console_errors ?? [],
      failed_requests: r.failed_requests ?? [],
    }));
}

export async function subtaskAttempts(id: number): Promise<SubtaskAttempt[]> {
  await getSubtaskRow(id);
  return (await attemptsOf(id)).map(({ console_errors: _c, failed_requests: _f, ...a }) => a);
}

export async function subtaskEvidence(id: number): Promise<SubtaskEvidence> {
  await getSubtaskRow(id);
  return { subtask_id: id, failures: (await attemptsOf(id)).filter((a) => !a.success) };
}

/**
 * A subtask beside the last Done run of the same (site, process, mode) created before it: read
 * from the site's subtasks newest first within the list engine's budget.
 */
export async function compareWithLastPass(id: number): Promise<SubtaskComparison> {
  const sub = await getSubtaskRow(id);
  const { result } = await checkStore().subtasks.list(
    emptyListQuery({
      page_size: 1,
      filters: {
        process: { kind: 'enum', values: [sub.process] },
        mode: { kind: 'enum', values: [sub.mode] },
        status: { kind: 'enum', values: [RunStatus.values.Done] },
        created_at: { kind: 'range', end: sub.created_at - 1 },
      },
    }),
    { scope: { site_id: sub.site_id } },
  );
  const [mine, ...passes] = await presentSubtasks([sub, ...result]);
  const [attempts, passAttempts] = await Promise.all([
    attemptsOf(sub.id),
    passes[0] ? attemptsOf(passes[0].id) : Promise.resolve([]),
  ]);
  return {
    subtask: mine,
    attempt: attempts.at(-1) ?? null,
    last_pass: passes[0] ? { subtask: passes[0], attempt: passAttempts.at(-1) ?? null } : null,
  };
}
