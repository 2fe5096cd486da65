import { OperationName, Process, TestMode } from '../../shared/enums.js';
import type { ProcessValue, TestModeValue } from '../../shared/schemas/checks.js';
import {
  type IncidentActionBody,
  IncidentCause,
  type IncidentCauseValue,
  IncidentEventKind,
  IncidentKind,
  IncidentSeverity,
  type IncidentSeverityValue,
  IncidentStatus,
} from '../../shared/schemas/incidents.js';
import { PatrolError } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { siteRefs } from '../sites/service.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { incidentHolding } from './holdingIncident.js';
import { enqueueIncidentSync } from './incidentQueue.js';
import { incidentStore, type StoredIncident } from './store.js';

// Correlated incidents (issue 45, docs/incidents.md "Correlated incidents"): a parent incident holds
// the children that share a cause, and sends the one message (incidentTelegram.ts renders a parent
// with its children's count and names). Three causes: one check failing on many sites
// (`same_check`, here), one bank's accounts failing together (`same_bank`: the bank side groups and
// calls openParent and joinParent), and the checker itself (`checker`, here: a control site failing).
//
// Every step may run again after a crash (it runs inside a subtask end's follow-up): the parent of
// a key is one unique claim taken before its row is written (as an incident's open key), a child's
// move is an idempotent write with its timeline entry under an id its mark names, and a parent's
// count, names and severity are recounted from its children each time, never added to.

const { Open, Resolved } = IncidentStatus.values;

const SEVERITY_RANK: Record<IncidentSeverityValue, number> = { info: 0, warning: 1, critical: 2 };
/** A parent with no child yet this long after it opened was left by a crash: the tick resolves it. */
export const EMPTY_PARENT_GRACE_MS = 2 * 60_000;

export interface ParentSpec {
  cause: IncidentCauseValue;
  /** What makes the group one: `${process}:${mode}` of a check, the bank of `same_bank`, '' for the checker. */
  key: string;
  /** The parent's name where a site's would be (the list's Site column, the message's second line). */
  title: string;
  at: number;
  /** What else the parent row carries: a check's process and mode, a bank parent's kind and bank. */
  fields?: Partial<StoredIncident>;
}

export const parentKeyOf = (cause: IncidentCauseValue, key: string) => `${cause}:${key}`;

/**
 * The open parent of a cause and key: the one holding its claim, or a new one that takes it (two
 * correlators at once make one). Exported for the bank side's `same_bank` grouping.
 */
export async function openParent(spec: ParentSpec): Promise<StoredIncident> {
  const key = parentKeyOf(spec.cause, spec.key);
  const { incident, created } = await incidentHolding('parent', key, () => ({
    kind: IncidentKind.values.Check,
    site_id: null,
    site_name: spec.title,
    process: null,
    mode: null,
    bank_account_id: null,
    bank_name: null,
    account_user: null,
    rule_id: null,
    rule_name: null,
    status: Open,
    opened_at: spec.at,
    resolved_at: null,
    failures: 0,
    last_failure_at: spec.at,
    last_message: '',
    acknowledged_by: null,
    snoozed_until: null,
    severity: IncidentSeverity.values.Warning,
    parent_id: null,
    cause: spec.cause,
    children: 0,
    child_names: [],
    open_key: `parent:${key}`,
    last_reminded_at: spec.at,
    escalation_from: spec.at,
    ...spec.fields,
  }));
  // Its first message waits for the rest of the burst too (incidentTelegram.ts); the tick is the backstop.
  const wait = (await getSystemConfig()).alerts.group_wait_seconds;
  if (created && wait > 0) await enqueueIncidentSync(incident.id, undefined, wait);
  return incident;
}

/**
 * Puts `child` under `parent` (from another parent too: the checker's takes a same-check parent's
 * children), with a `grouped` entry on the child's timeline, and recounts both parents. Runs again
 * after a crash without a second entry. Exported for the bank side's `same_bank` grouping.
 *
 * The timeline entry comes before `parent_id`, so a child whose `parent_id` names the parent has its
 * entry: a later failure need not join its grouped siblings again (each join costs writes, and a
 * parent of N children would cost N joins a failure), only the child it is about.
 */
export async function joinParent(parent: Pick<StoredIncident, 'id' | 'site_name'>, child: StoredIncident, at: number) {
  const store = incidentStore();
  if (child.id === parent.id || child.cause) return;
  const before = child.parent_id ?? null;
  const mark = await store.claimCause(`grouped:${child.id}:${parent.id}`, child.id);
  if (mark.eventId !== undefined && (!mark.again || !(await store.hasEvent(child.id, mark.eventId))))
    await store.addEvent(
      {
        incident_id: child.id,
        kind: IncidentEventKind.values.Grouped,
        at,
        subtask_id: null,
        operation_id: null,
        actor: null,
        via: null,
        note: `Under incident #${parent.id}: ${parent.site_name ?? ''}`,
      },
      mark.eventId,
    );
  if (before !== parent.id) await store.update(child.id, { parent_id: parent.id });
  if (before !== null && before !== parent.id) await refreshParent(before, at, { mayResolve: true });
  await refreshParent(parent.id, at);
}

const nameOf = (i: StoredIncident) => i.site_name ?? i.account_user ?? `#${i.id}`;

/**
 * Recounts a parent from its unresolved children: their count and names, the loudest severity, the
 * failures summed, the latest failure's message; and syncs its message. With `mayResolve` (a child
 * left), a parent with no child left resolves, frees its key, and its message says so.
 */
export async function refreshParent(parentId: number, at: number, opts: { mayResolve?: boolean } = {}) {
  const store = incidentStore();
  const parent = await store.get(parentId);
  if (!parent?.cause) return;
  const children =
    parent.status === Resolved ? [] : (await store.active()).filter((i) => i.parent_id === parentId && !i.cause);
  if (children.length === 0) {
    if (!opts.mayResolve && parent.status !== Resolved) return;
    // Resolved already: a run again after a crash completes the entry and the key's release.
    if (parent.status !== Resolved)
      await store.update(parentId, { status: Resolved, resolved_at: at, children: 0, child_names: [] });
    const mark = await store.claimCause(`parent-resolved:${parentId}`, parentId);
    if (mark.eventId !== undefined && (!mark.again || !(await store.hasEvent(parentId, mark.eventId))))
      await store.addEvent(
        {
          incident_id: parentId,
          kind: IncidentEventKind.values.Resolved,
          at,
          subtask_id: null,
          operation_id: null,
          actor: null,
          via: null,
          note: 'Its last child resolved',
        },
        mark.eventId,
      );
    await enqueueIncidentSync(parentId);
    // Last: while the key is held, a run again after a crash finds the parent to complete.
    await store.releaseParent(parent.open_key.replace(/^parent:/, ''), parentId);
    return;
  }
  const latest = children.reduce((a, b) => (b.last_failure_at > a.last_failure_at ? b : a));
  const severity = children
    .map((c) => c.severity ?? IncidentSeverity.values.Warning)
    .reduce((a, b) => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a));
  await store.update(parentId, {
    children: children.length,
    child_names: [...new Set(children.map(nameOf))].sort((a, b) => a.localeCompare(b)),
    severity,
    failures: children.reduce((sum, c) => sum + c.failures, 0),
    last_failure_at: latest.last_failure_at,
    last_message: latest.last_message,
  });
  await enqueueIncidentSync(parentId);
}

/** A child resolved: it leaves its parent, and the parent resolves with its last child. */
export async function childResolved(child: Pick<StoredIncident, 'parent_id'>, at: number): Promise<void> {
  if (child.parent_id) await refreshParent(child.parent_id, at, { mayResolve: true });
}

/** Whether the incident is a child of a parent that is still open (it sends nothing of its own then). */
export async function underOpenParent(incident: Pick<StoredIncident, 'parent_id'>): Promise<boolean> {
  if (!incident.parent_id) return false;
  const parent = await incidentStore().get(incident.parent_id);
  return parent !== undefined && parent.status !== Resolved;
}

const isCheckChild = (i: StoredIncident) => !i.cause && (i.kind ?? IncidentKind.values.Check) === 'check';

/**
 * After a check failure is counted on its incident (recordIncidentResult): groups a fresh incident
 * with its siblings. A control site's failure opens (or joins) the "Checker unhealthy" parent and
 * takes every check incident of the window under it; while its control incident is unresolved, new
 * check incidents join it. Otherwise `alerts.correlate_min_sites` sites (0: never) with incidents on
 * the same process and mode opened within `alerts.correlate_window_minutes` share a `same_check`
 * parent, which later ones of that check join while it is open. The first failure also asks for the
 * group wait's delayed sync (incidentTelegram.ts sends the first message no earlier).
 */
export async function correlateCheckFailure(incident: StoredIncident, at: number): Promise<void> {
  if (!isCheckChild(incident) || incident.site_id === null || incident.status === Resolved) return;
  const { alerts } = await getSystemConfig();
  if (incident.failures <= 1 && alerts.group_wait_seconds > 0)
    await enqueueIncidentSync(incident.id, undefined, alerts.group_wait_seconds);
  const windowMs = alerts.correlate_window_minutes * 60_000;
  // Only a fresh incident is part of a burst; one failing for long has told its story already.
  if (at - incident.opened_at > windowMs) return;
  const store = incidentStore();
  const site = (await siteRefs([incident.site_id])).get(incident.site_id);
  if (site?.control) return checkerUnhealthy(incident, at, windowMs);

  const checkerId = await store.parentOf(parentKeyOf(IncidentCause.values.Checker, ''));
  if (checkerId !== undefined) {
    const checker = await store.get(checkerId);
    const control = checker?.control_incident_id ? await store.get(checker.control_incident_id) : undefined;
    if (checker && checker.status !== Resolved && control && control.status !== Resolved) {
      if (incident.parent_id !== checker.id) await joinParent(checker, incident, at);
      return;
    }
  }
  if (alerts.correlate_min_sites <= 0 || incident.process === null || incident.mode === null) return;
  const { process, mode } = incident;
  const spec: ParentSpec = {
    cause: IncidentCause.values.SameCheck,
    key: `${process}:${mode}`,
    title: `${Process.label(process)} (${TestMode.label(mode)}) on several sites`,
    at,
    fields: { process, mode },
  };
  const openId = await store.parentOf(parentKeyOf(spec.cause, spec.key));
  const open = openId === undefined ? undefined : await store.get(openId);
  // Under another parent (the checker's) it stays; under this one, a run again completes the group.
  if (incident.parent_id && incident.parent_id !== open?.id) return;
  // Every sibling without a parent joins, not this one alone: a run again after a crash between the
  // parent's open and its joins completes the group. Siblings under it already are joined (their
  // entry is written before their parent_id): only this incident is joined again, to recount.
  const siblings = (await store.active()).filter(
    (i) =>
      isCheckChild(i) &&
      i.process === process &&
      i.mode === mode &&
      (!i.parent_id || i.id === incident.id) &&
      i.opened_at >= at - windowMs &&
      i.site_id !== null,
  );
  if (!siblings.some((s) => s.id === incident.id)) siblings.push(incident);
  const grouping = open && open.status !== Resolved;
  if (!grouping && new Set(siblings.map((s) => s.site_id)).size < alerts.correlate_min_sites) return;
  const parent = grouping ? open : await openParent(spec);
  for (const sibling of siblings) await joinParent(parent, sibling, at);
}

/** A control site failed: Patrol's own browser or network is at fault, not the sites. */
async function checkerUnhealthy(control: StoredIncident, at: number, windowMs: number): Promise<void> {
  const parent = await openParent({
    cause: IncidentCause.values.Checker,
    key: '',
    title: 'Checker unhealthy',
    at,
    fields: { control_incident_id: control.id },
  });
  // The control that keeps it gathering: this one, unless another control's incident still fails.
  if (parent.control_incident_id !== control.id) {
    const held = parent.control_incident_id ? await incidentStore().get(parent.control_incident_id) : undefined;
    if (!held || held.status === Resolved) await incidentStore().update(parent.id, { control_incident_id: control.id });
  }
  await joinParent(parent, control, at);
  const others = (await incidentStore().active()).filter(
    (i) => isCheckChild(i) && i.id !== control.id && i.parent_id !== parent.id && i.opened_at >= at - windowMs,
  );
  for (const other of others) await joinParent(parent, other, at);
}

/** A parent's unresolved children (actions on a parent apply to each). */
export async function childrenOf(parentId: number): Promise<StoredIncident[]> {
  return (await incidentStore().active()).filter((i) => i.parent_id === parentId && !i.cause);
}

/**
 * The minute tick's part: a parent left without a child by a crash between its claim and the first
 * join resolves once EMPTY_PARENT_GRACE_MS has passed.
 */
export async function settleEmptyParents(now: number): Promise<void> {
  for (const parent of (await incidentStore().active()).filter((i) => i.cause && (i.children ?? 0) === 0))
    if (now - parent.opened_at >= EMPTY_PARENT_GRACE_MS) await refreshParent(parent.id, now, { mayResolve: true });
}

/** What a parent's actions need from the service (passed in: the service imports this module). */
export interface ChildActions {
  /** The same action on one child, as its own press would do it. */
  act(childId: number, body: IncidentActionBody): Promise<unknown>;
  startCheck(input: {
    siteIds: number[];
    points: { point: ProcessValue; modes: TestModeValue[] }[];
    name: typeof OperationName.values.SingleSite | typeof OperationName.values.MultiSites;
    operatorId: number;
    remark: string;
  }): Promise<{ id: number }>;
}

/**
 * An action on a parent applies to every unresolved child: acknowledge, snooze, maintenance (each
 * child's site its own window), poll and disable (a bank child's) each as the child's own; a re-run
 * is one check per process and mode over the children's sites (the parent's hold and the user's
 * budget were taken once, for the parent). Answers the first re-run's operation. A child that
 * resolved meanwhile or refuses is left out (logged), the others go on.
 */
export async function actOnChildren(
  parent: StoredIncident,
  body: IncidentActionBody,
  actorId: number,
  actions: ChildActions,
): Promise<number | null> {
  const children = await childrenOf(parent.id);
  if (body.action === 'rerun') {
    const groups = new Map<string, { process: ProcessValue; mode: TestModeValue; sites: number[] }>();
    for (const c of children) {
      if (c.site_id === null || c.process === null || c.mode === null) continue;
      const key = `${c.process}:${c.mode}`;
      const group = groups.get(key) ?? { process: c.process, mode: c.mode, sites: [] };
      if (!group.sites.includes(c.site_id)) group.sites.push(c.site_id);
      groups.set(key, group);
    }
    let first: number | null = null;
    for (const g of groups.values()) {
      const operation = await actions.startCheck({
        siteIds: g.sites,
        points: [{ point: g.process, modes: [g.mode] }],
        name: g.sites.length > 1 ? OperationName.values.MultiSites : OperationName.values.SingleSite,
        operatorId: actorId,
        remark: `Re-run of incident ${parent.id}`,
      });
      first ??= operation.id;
    }
    return first;
  }
  for (const child of children) {
    try {
      await actions.act(child.id, body);
    } catch (error) {
      if (!(error instanceof PatrolError) || error.status >= 500) throw error;
      logger.info('a child incident refused its parent’s action', { incident_id: child.id, error: error as Error });
    }
  }
  return null;
}
