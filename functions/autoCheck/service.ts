import type { FollowUp } from '../lib/db/entity.js';
import { nextRun, weekCalendar, weekStartInstant } from '../../shared/autoCheckSchedule.js';
import { OperationName } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type AutoCheckRule,
  type AutoLog,
  type CheckNowReply,
  type RuleBody,
  type RuleCalendar,
  type RuleItem,
  RuleMessages,
  type SkippedSite,
  SkipReason,
  type UpdateRuleBody,
} from '../../shared/schemas/autoCheck.js';
import { getOperation } from '../checks/read.js';
import { normalizePoints, startCheck } from '../checks/start.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { ValidationError } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { maintenanceBands, pausedSites } from '../maintenance/service.js';
import { siteStore } from '../sites/store.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { userRefs } from '../users/refs.js';
import { RuleNotFoundError, RuleScheduleError } from './errors.js';
import { ruleSchedulerInUse } from './scheduler/ruleSchedulerInUse.js';
import { ruleStore, type StoredRule } from './store.js';

const zoneInForce = async () => (await getSystemConfig()).time_zone;

async function present(rows: StoredRule[], now = Date.now()): Promise<AutoCheckRule[]> {
  const [users, zone] = await Promise.all([userRefs(rows.map((r) => r.creator_id)), zoneInForce()]);
  return rows.map(({ creator_id, schedule_since: _s, ...r }) => ({
    ...r,
    updated_at: r.updated_at ?? r.created_at,
    creator: users.get(creator_id) ?? null,
    next_run: r.enable ? (nextRun(r.times, zone, now)?.getTime() ?? null) : null,
  }));
}

async function ruleRow(id: number): Promise<StoredRule> {
  const rule = await ruleStore().getRule(id);
  if (!rule) throw new RuleNotFoundError(id);
  return rule;
}

export async function listRules(query: ListQuery): Promise<ListOutcome<AutoCheckRule>> {
  const page = await ruleStore().listRules(query);
  return { ...page, result: await present(page.result) };
}

export async function getRule(id: number): Promise<AutoCheckRule> {
  return (await present([await ruleRow(id)]))[0];
}

/** Every site of a new or edited rule exists and is not deleted; disabled ones are allowed (they may come back). */
async function assertSitesExist(ids: number[]): Promise<void> {
  const live = new Set((await siteStore().getSites(ids)).map((s) => s.id));
  const missing = ids.find((id) => !live.has(id));
  if (missing !== undefined) throw new ValidationError({ sites: RuleMessages.siteMissing(missing) });
}

/** Runs one schedule call; a failure is logged and becomes the 503 an operator can retry. */
async function scheduled(ruleId: number, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    logger.error('rule schedules could not be synced', { ruleId, error });
    throw new RuleScheduleError(ruleId, { cause: error });
  }
}

/**
 * Puts a rule's schedules back as they were after a failed change (`attempted`, whose slots may
 * have been created meanwhile); a failure here is only logged.
 */
async function restoreSchedules(rule: StoredRule, zone: string, attempted: StoredRule = rule): Promise<void> {
  await ruleSchedulerInUse()
    .syncRule(rule, zone, attempted)
    .catch((error: unknown) => logger.error('rule schedules could not be restored', { ruleId: rule.id, error }));
}

// A rule and its schedules change together or not at all: a schedule call that fails (the
// cloud's EventBridge Scheduler unreachable) leaves the rule as it was and answers 503, so an
// operator never sees a saved rule that will not fire. Changes schedule first and write after;
// a new rule needs its id first, so it is written, and taken back when it cannot be scheduled.

export async function createRule(body: RuleBody, creatorId: number | null): Promise<AutoCheckRule> {
  await assertSitesExist(body.sites);
  const rule = await ruleStore().createRule({
    name: body.name,
    sites: body.sites,
    checkpoints: normalizePoints(body.points),
    times: body.times,
    enable: true,
    creator_id: creatorId,
    schedule_since: Date.now(),
  });
  try {
    await scheduled(rule.id, async () => ruleSchedulerInUse().syncRule(rule, await zoneInForce()));
  } catch (error) {
    await ruleStore().deleteRule(rule.id);
    await ruleSchedulerInUse()
      .removeRule(rule)
      .catch(() => undefined);
    throw error;
  }
  return (await present([rule]))[0];
}

/** `{name, sites, points, times}`, `{enable}` or `{delete: 1}`. A deleted rule answers null. */
export async function updateRule(id: number, body: UpdateRuleBody): Promise<AutoCheckRule | null> {
  const current = await ruleRow(id);
  const zone = await zoneInForce();
  if ('delete' in body) {
    await scheduled(id, () => ruleSchedulerInUse().removeRule(current)).catch(async (error: unknown) => {
      await restoreSchedules(current, zone);
      throw error;
    });
    await ruleStore().deleteRule(id);
    return null;
  }
  let patch: Partial<StoredRule>;
  if ('enable' in body) {
    if (body.enable === current.enable) return (await present([current]))[0];
    // Slots before an enable were never due: the catch-up after a restart must not call them missed.
    patch = { enable: body.enable, schedule_since: Date.now() };
  } else {
    await assertSitesExist(body.sites);
    const timesChanged = JSON.stringify(body.times) !== JSON.stringify(current.times);
    patch = {
      name: body.name,
      sites: body.sites,
      checkpoints: normalizePoints(body.points),
      times: body.times,
      ...(timesChanged ? { schedule_since: Date.now() } : {}),
    };
  }
  const next = { ...current, ...patch };
  try {
    await scheduled(id, () => ruleSchedulerInUse().syncRule(next, zone, current));
    return (await present([await ruleStore().updateRule(id, patch)]))[0];
  } catch (error) {
    await restoreSchedules(current, zone, next);
    throw error;
  }
}

/**
 * The rule's sites split into those a check can run on and those it leaves out (deleted,
 * disabled, without an enabled account, or, for a slot at `pausedAt`, under a pause maintenance
 * window), with the reason for each. A check started by hand is not paused: it is an explicit act.
 */
export async function partitionSites(
  ids: number[],
  options: { pausedAt?: number } = {},
): Promise<{ checkable: number[]; skipped: SkippedSite[] }> {
  const [live, all, paused] = await Promise.all([
    siteStore().getSites(ids),
    siteStore().getSites(ids, { includeDeleted: true }),
    options.pausedAt === undefined
      ? new Map<number, { id: number; name: string }>()
      : pausedSites(ids, options.pausedAt),
  ]);
  const liveById = new Map(live.map((s) => [s.id, s]));
  const anyById = new Map(all.map((s) => [s.id, s]));
  const checkable: number[] = [];
  const skipped: SkippedSite[] = [];
  for (const id of ids) {
    const site = liveById.get(id);
    if (!site) skipped.push({ site_id: id, name: anyById.get(id)?.name ?? null, reason: SkipReason.Deleted });
    else if (!site.enable) skipped.push({ site_id: id, name: site.name, reason: SkipReason.Disabled });
    else if (site.available_account_cnt <= 0)
      skipped.push({ site_id: id, name: site.name, reason: SkipReason.NoAccount });
    else if (paused.has(id))
      skipped.push({ site_id: id, name: site.name, reason: SkipReason.Maintenance, window: paused.get(id) });
    else checkable.push(id);
  }
  return { checkable, skipped };
}

export function skippedText(skipped: SkippedSite[]): string {
  const why = (s: SkippedSite) =>
    s.reason === SkipReason.Maintenance && s.window ? `maintenance: ${s.window.name}` : s.reason.replace('_', ' ');
  return skipped.map((s) => `${s.name ?? `#${s.site_id}`} (${why(s)})`).join(', ');
}

/** Starts an AutoCheck operation over the rule's checkable sites; throws ValidationError when none is. */
export async function startRuleCheck(
  rule: StoredRule,
  operatorId: number | null,
  remark: string,
  options: {
    pausedAt?: number;
    /** What the operation's start sets in motion besides its tasks (a slot's log): its follow-ups (checks/start.ts). */
    followUps?: (operationId: number, skipped: SkippedSite[]) => FollowUp[];
  } = {},
): Promise<{ operationId: number; skipped: SkippedSite[] }> {
  const { checkable, skipped } = await partitionSites(rule.sites, options);
  if (!checkable.length) {
    throw new ValidationError({ sites: `No site of rule ${rule.name} can be checked: ${skippedText(skipped)}` });
  }
  const operation = await startCheck({
    siteIds: checkable,
    points: rule.checkpoints.points.map((p) => ({ point: p.process, modes: p.modes })),
    name: OperationName.values.AutoCheck,
    operatorId,
    ruleId: rule.id,
    remark: skipped.length ? `${remark}; skipped ${skippedText(skipped)}` : remark,
    ...(options.followUps
      ? { followUps: (operationId: number) => options.followUps?.(operationId, skipped) ?? [] }
      : {}),
  });
  return { operationId: operation.id, skipped };
}

/** POST /auto-check/rules/{id}/check: check now, by the caller, whatever the rule's enable. */
export async function checkRuleNow(id: number, operatorId: number): Promise<CheckNowReply> {
  const rule = await ruleRow(id);
  const { operationId, skipped } = await startRuleCheck(rule, operatorId, `Rule ${rule.name}: check now`);
  return { operation: await getOperation(operationId), skipped };
}

/** GET /auto-check/rules/{id}/items: the rule's sites as they are now, deleted ones included. */
export async function ruleItems(id: number): Promise<ListOutcome<RuleItem>> {
  const rule = await ruleRow(id);
  const [live, all] = await Promise.all([
    siteStore().getSites(rule.sites),
    siteStore().getSites(rule.sites, { includeDeleted: true }),
  ]);
  const liveIds = new Set(live.map((s) => s.id));
  const byId = new Map(all.map((s) => [s.id, s]));
  const result = rule.sites.map((siteId): RuleItem => {
    const site = byId.get(siteId);
    return {
      id: siteId,
      name: site?.name ?? null,
      url: site?.url ?? null,
      enable: Boolean(site?.enable) && liveIds.has(siteId),
      deleted: !liveIds.has(siteId),
      available_account_cnt: site?.available_account_cnt ?? 0,
    };
  });
  // Two batch reads of at most `sites` small items each, ~0.5 RCU per strongly read item.
  const rcu = Math.ceil(rule.sites.length / 2) * 2 * 0.5 + 0.5;
  return { result, total_count: result.length, page: 1, page_size: 0, consumed_rcu: rcu };
}

export async function listLogs(query: ListQuery, ruleId?: number): Promise<ListOutcome<AutoLog>> {
  if (ruleId !== undefined) await ruleRow(ruleId);
  const page = await ruleStore().listLogs(query, ruleId);
  const rules = await ruleStore().getRules(
    page.result.map((l) => l.rule_id),
    { includeDeleted: true },
  );
  const names = new Map(rules.map((r) => [r.id, r.name]));
  return {
    ...page,
    result: page.result.map((l) => ({
      ...l,
      rule: names.has(l.rule_id) ? { name: names.get(l.rule_id) as string } : null,
    })),
  };
}

/**
 * GET /auto-check/calendar: every enabled rule's slots on the week of the configured zone, and the
 * maintenance windows on this week (weekly ones every week, one-off ones where they fall in it).
 */
export async function ruleCalendar(now = Date.now()): Promise<RuleCalendar> {
  const [rules, config, maintenance] = await Promise.all([
    ruleStore().allRules(),
    getSystemConfig(),
    maintenanceBands(now),
  ]);
  const concurrency = config.checker.concurrency;
  return {
    time_zone: config.time_zone,
    concurrency,
    cells: weekCalendar(rules, concurrency),
    week_start: weekStartInstant(now, config.time_zone),
    maintenance,
  };
}

/** Every rule's schedules again in `zone` (the configured time zone changed). */
export async function resyncRuleSchedules(zone: string): Promise<number> {
  const rules = await ruleStore().allRules();
  await ruleSchedulerInUse().resyncAll(rules, zone);
  return rules.length;
}
