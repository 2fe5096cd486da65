import type { FollowUp } from '../lib/db/entity.js';
import { OperationName, Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import {
  CheckMessages,
  type CheckPoint,
  type Checkpoints,
  type ProcessValue,
  type TestModeValue,
} from '../../shared/schemas/checks.js';
import type { Site } from '../../shared/schemas/sites.js';
import { ValidationError } from '../lib/errors.js';
import { mapLimit } from '../lib/mapLimit.js';
import { enabledAccounts, getSite } from '../sites/service.js';
import { SiteNotFoundError } from '../sites/errors.js';
import { recordEvent } from './events.js';
import { pendingSubtask } from './pendingSubtask.js';
import { enqueueSubtasks } from './queue.js';
import { type StoredOperation, type StoredSubtask, checkStore } from './store.js';

/** Normalized checkpoints: points without modes dropped, duplicates merged, in process order. */
export function normalizePoints(points: CheckPoint[]): Checkpoints {
  const byProcess = new Map<ProcessValue, Set<TestModeValue>>();
  for (const p of points) {
    if (!p.modes.length) continue;
    const set = byProcess.get(p.point as ProcessValue) ?? new Set();
    for (const m of p.modes) set.add(m as TestModeValue);
    byProcess.set(p.point as ProcessValue, set);
  }
  return {
    points: [...byProcess.entries()]
      .sort(([a], [b]) => a - b)
      .map(([process, modes]) => ({ process, modes: [...modes].sort((a, b) => a - b) })),
  };
}

/** One subtask per process and mode; Login at most once per task (in its first mode). */
export function plannedSubtasks(checkpoints: Checkpoints): { process: ProcessValue; mode: TestModeValue }[] {
  const plan: { process: ProcessValue; mode: TestModeValue }[] = [];
  for (const p of checkpoints.points) {
    if (p.process === Process.values.Login) plan.push({ process: p.process, mode: p.modes[0] });
    else for (const mode of p.modes) plan.push({ process: p.process, mode });
  }
  return plan;
}

async function checkableSite(siteId: number): Promise<{ site: Site; accountId: number }> {
  let site: Site;
  try {
    site = await getSite(siteId);
  } catch (error) {
    if (error instanceof SiteNotFoundError) {
      throw new ValidationError({ sites: `Site ${siteId} does not exist` }, `Site ${siteId} does not exist`);
    }
    throw error;
  }
  if (!site.enable) throw new ValidationError({ sites: `Site ${site.name} is disabled` });
  const accounts = await enabledAccounts(siteId);
  if (!accounts.length) throw new ValidationError({ sites: `Site ${site.name} has no enabled account` });
  // Spread the load over the site's accounts: a site with several bot accounts gets them in turn.
  const account = accounts[Math.floor(Math.random() * accounts.length)];
  return { site, accountId: account.id };
}

export interface StartCheckInput {
  siteIds: number[];
  points: CheckPoint[];
  name: StoredOperation['name'];
  operatorId: number | null;
  ruleId?: number | null;
  remark?: string;
  /**
   * What the operation's start sets in motion besides its tasks (a rule slot's log, autoCheck):
   * stored with the operation's row, under its id chosen before, and applied once it is written.
   */
  followUps?: (operationId: number) => FollowUp[];
}

/**
 * Creates an Operation with one Task per site and one SubTask per process and mode, then
 * enqueues the work and returns at once: nothing runs inside the API call.
 * Every site is validated before anything is written, so a refused check leaves no trace.
 */
export async function startCheck(input: StartCheckInput): Promise<StoredOperation> {
  const checkpoints = normalizePoints(input.points);
  if (!checkpoints.points.length) {
    const msg =
      input.name === OperationName.values.SingleSite ? CheckMessages.noCheckpointSingle : CheckMessages.noPointBatch;
    throw new ValidationError({ points: msg });
  }
  const siteIds = [...new Set(input.siteIds)];
  if (!siteIds.length) throw new ValidationError({ sites: CheckMessages.noSites });
  const targets = await mapLimit(siteIds, 8, checkableSite);
  const plan = plannedSubtasks(checkpoints);

  const now = Date.now();
  const id = input.followUps ? await checkStore().operations.newId() : undefined;
  const operation = await checkStore().operations.create(
    {
      name: input.name,
      status: RunStatus.values.Running,
      operator_id: input.operatorId,
      site_id: input.name === OperationName.values.SingleSite ? targets[0].site.id : null,
      rule_id: input.ruleId ?? null,
      task_total: targets.length,
      task_done: 0,
      task_failed: 0,
      task_running: 0,
      open: 1,
      start_at: now,
      end_at: null,
      remark: input.remark ?? '',
    },
    id === undefined ? undefined : { id, followUps: input.followUps?.(id) },
  );
  await recordEvent('operation_start', operation.id, `Operation ${operation.id} started for ${targets.length} site(s)`);

  // Tasks are written a few at a time, and each task's first wave is sent as soon as its rows
  // exist, so the first check starts while the rest of a large batch is still being written.
  await mapLimit(targets, 6, async ({ site, accountId }) => {
    const task = await checkStore().tasks.create({
      operation_id: operation.id,
      site_id: site.id,
      account_id: accountId,
      checkpoints,
      status: TaskStatus.values.Pending,
      creator_id: input.operatorId,
      task_total: plan.length,
      task_done: 0,
      task_failed: 0,
      task_running: 0,
      session_id: null,
      start_at: null,
      end_at: null,
      remark: '',
    });
    const created = await checkStore().subtasks.createMany(
      plan.map((step) =>
        pendingSubtask({
          task_id: task.id,
          operation_id: operation.id,
          site_id: site.id,
          mode: step.mode,
          process: step.process,
        }),
      ),
    );
    await enqueueSubtasks(firstWave(created));
  });
  return operation;
}

/** Login runs first; the task's other subtasks follow when it succeeds and reuse its session. */
export function firstWave(list: StoredSubtask[]): StoredSubtask[] {
  const login = list.find((s) => s.process === Process.values.Login);
  return login ? [login] : list;
}
