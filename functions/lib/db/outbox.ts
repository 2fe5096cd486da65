// Follow-ups: what a state transition sets in motion, written by the transition itself and applied
// exactly once in effect, whatever crashes in between (docs/data-model.md "Follow-ups").
//
// Without multi-item transactions (dynalite has none) a step like "subtask Done, then the task's
// counters, then the task's end" is several writes, and a process killed between two of them used to
// leave the rest undone for ever. Here the transition writes its own pending follow-ups onto the row
// it changes, in the same conditional UpdateItem (an outbox entry `_ob_e_<entry>`), so either both
// happen or neither does. Then:
//   1. the writer applies the entry's steps at once, in order (inline);
//   2. the entry is removed once every step has been applied;
//   3. an entry still there a few seconds later (its writer died, or a step failed) is applied again
//      by the sweeper (`sweepFollowUps`, registry `followUpSweeper`, and at every local start).
// So a step may run more than once and must be idempotent, keyed by its cause:
//   - a counter move: `add(id, deltas, { once: cause })`, an ADD guarded by the set of causes the
//     row has already counted (`_ob_causes`), in the same write;
//   - a row: written under an id the transition allocated beforehand and carries in the step's
//     args (`create(data, { id })` refuses a second write of the same id);
//   - another transition: conditional on the state it leaves, so a second try finds it done;
//   - a queue message: a consumer that drops duplicates (a claim, or a status it checks).
// The same holds on dynalite and in the cloud: every write is one single-item conditional write;
// no TransactWriteItems.
//
// A kind of follow-up is declared once, by name, with its apply function; a transition lists steps:
//
//   // functions/checks/counts.ts
//   export const countOnTask = defineFollowUp(
//     'check.task_count',
//     ({ task_id, cause, deltas }: { task_id: number; cause: string; deltas: Record<string, number> }) =>
//       checkStore().tasks.addOnce(task_id, deltas, cause),
//   );
//   // the transition (transition.ts: the row's write with its follow-ups recorded in it)
//   await transition(repo, sub.id, { status: Done }, {
//     expect: { status: Running },
//     followUps: [countOnTask({ task_id: sub.task_id, cause: `subtask_end:${sub.id}`, deltas: { task_done: 1 } })],
//   });
//
// A new row records its follow-ups the same way: `repo.create(data, { id, followUps })` stores them
// with the row in its PutItem (e.g. a bank statement and the sub-account sum, balance check,
// notification and delivery it sets in motion).
//
// Args are plain data (they are stored on the row). The sweeper must know every kind: the module that
// declares one is imported by functions/data/followUpKinds.ts (its test checks that).

import { QueryCommand, UpdateCommand, GetCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import type { FollowUp, KeptCounts } from './entity.js';
import { CounterBatch } from './counters.js';
import { isConditionFailure } from './conditionFailure.js';
import { ExpressionBuilder, type Item } from './expr.js';
import { OUTBOX_INDEX, OUTBOX_PREFIX } from './tableSchema.js';

/**
 * What the steps of one entry share. `counts`: a batch of kept counts (lib/db/counters.ts
 * CounterBatch), so rows the steps write share counter items (a subtask end's engine event and
 * notification, one counter group: the day's counts move in one ADD). The writer that applies its
 * own follow-ups inline may lend one that it moves once at the end of its work (a bank poll's);
 * otherwise the entry has its own, moved once its steps have run (applyEntry).
 */
export interface FollowUpContext {
  counts?: KeptCounts;
  /**
   * Rows a step of the entry being applied wrote, as its write returned them (by `type#id`): a later
   * step of the same entry that reads that row may take it instead (a subtask's end counts on its
   * task, then asks whether the task is complete). Each entry starts with none (applyEntry).
   */
  known?: Map<string, unknown>;
}

/** A declared kind: call it with args to get a step; `apply` does it (idempotently). */
export interface FollowUpKind<A extends object> {
  (args: A): FollowUp;
  readonly kind: string;
  apply(args: A, context?: FollowUpContext): Promise<unknown>;
}

const KINDS = new Map<string, FollowUpKind<never>>();

/** Declares a kind of follow-up. Its apply must be idempotent for the same args (see the header). */
export function defineFollowUp<A extends object>(
  kind: string,
  apply: (args: A, context?: FollowUpContext) => Promise<unknown>,
): FollowUpKind<A> {
  if (KINDS.has(kind)) throw new Error(`follow-up kind ${kind} is declared twice`);
  const make = ((args: A): FollowUp => ({ kind, args: args as Record<string, unknown> })) as FollowUpKind<A>;
  Object.defineProperties(make, { kind: { value: kind }, apply: { value: apply } });
  KINDS.set(kind, make as FollowUpKind<never>);
  return make;
}

/** Every declared kind's name (the sweeper's bundle imports them all; a test compares). */
export function followUpKinds(): string[] {
  return [...KINDS.keys()];
}

/** An entry older than this is the sweeper's: its writer died or a step failed. */
export const FOLLOW_UP_STALE_MS = 5_000;

const ENTRY_PREFIX = `${OUTBOX_PREFIX}e_`;
const VERSION = `${OUTBOX_PREFIX}v`;
/** The set of causes a guarded counter has counted (`add(..., { once })`). */
export const CAUSES = `${OUTBOX_PREFIX}causes`;
const OUTBOX_PARTITION = 'outbox';

interface Entry {
  at: number;
  steps: FollowUp[];
}

const sortKey = (at: number) => String(at).padStart(13, '0');

/** The part of an UpdateItem that records an entry: clauses to join into the transition's own expression. */
export interface OutboxWrite {
  name: string;
  entry: Entry;
  sets: string[];
  adds: string[];
  removes: string[];
  /** The entries this write removed (`replaces`): no longer on the row after it. */
  replaced: string[];
}

/**
 * Clauses recording `steps` as one entry on the row the update writes (it also marks the row for the
 * sweeper). `replaces`: entries of the row its writer applied earlier and kept (applyRecorded `keep`),
 * removed by this same write instead of a clear of their own; the row's sweeper time is then this
 * entry's (were another entry pending, it is swept that much later, never lost).
 */
export function recordFollowUps(
  b: ExpressionBuilder,
  steps: FollowUp[],
  at = Date.now(),
  replaces: readonly string[] = [],
): OutboxWrite {
  const { name, entry } = newEntry(steps, at);
  const index = b.name(OUTBOX_INDEX.sortKey);
  const replaced = replaces.filter((r) => r.startsWith(ENTRY_PREFIX));
  return {
    name,
    entry,
    sets: [
      `${b.name(name)} = ${b.value(entry as unknown as NativeAttributeValue)}`,
      `${b.name(OUTBOX_INDEX.partitionKey)} = ${b.value(OUTBOX_PARTITION)}`,
      // The oldest pending entry's time: the sweeper finds the row once that is stale.
      replaced.length
        ? `${index} = ${b.value(sortKey(at))}`
        : `${index} = if_not_exists(${index}, ${b.value(sortKey(at))})`,
    ],
    adds: [`${b.name(VERSION)} ${b.value(1)}`],
    removes: replaced.map((r) => b.name(r)),
    replaced,
  };
}

function newEntry(steps: FollowUp[], at: number): { name: string; entry: Entry } {
  return { name: `${ENTRY_PREFIX}${sortKey(at)}${randomBytes(4).toString('hex')}`, entry: { at, steps } };
}

/**
 * The attributes recording `steps` as the one entry of a row a create writes whole (its PutItem
 * carries them), and the entry to apply once the row is stored.
 */
export function followUpsOfNewRow(steps: FollowUp[], at = Date.now()): { attributes: Item; write: OutboxWrite } {
  const { name, entry } = newEntry(steps, at);
  return {
    attributes: {
      [name]: entry as unknown as NativeAttributeValue,
      [VERSION]: 1,
      [OUTBOX_INDEX.partitionKey]: OUTBOX_PARTITION,
      [OUTBOX_INDEX.sortKey]: sortKey(at),
    },
    write: { name, entry, sets: [], adds: [], removes: [], replaced: [] },
  };
}

/** The pending entries of a stored item, oldest first, and its outbox version. */
interface View {
  entries: [name: string, entry: Entry][];
  version: number;
}

function viewOf(item: Item): View {
  const entries = Object.entries(item)
    .filter(([attr]) => attr.startsWith(ENTRY_PREFIX))
    .sort(([a], [b]) => (a < b ? -1 : 1)) as [string, Entry][];
  return { entries, version: Number(item[VERSION] ?? 0) };
}

type Key = { pk: string; sk: string };

class UnknownKind extends Error {
  override name = 'UnknownKind';
  constructor(readonly kind: string) {
    super(`follow-up of an unknown kind: ${kind}`);
  }
}

function applyStep(step: FollowUp, context?: FollowUpContext): Promise<unknown> {
  const kind = KINDS.get(step.kind);
  if (!kind) return Promise.reject(new UnknownKind(step.kind));
  return kind.apply(step.args as never, context);
}

/**
 * Steps with no order among them (none reads what another writes), applied at once: an entry's
 * steps run in order, and a group is one of them. A failed step fails the group once the others
 * have settled; applied again, every step of it runs again (each is idempotent).
 */
const group = defineFollowUp('outbox.together', async ({ steps }: { steps: FollowUp[] }, context?: FollowUpContext) => {
  const settled = await Promise.allSettled(steps.map((step) => applyStep(step, context)));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
});

/** One step doing `steps` at once (see `group`); the step itself when there is one, nothing when none. */
export function together(steps: (FollowUp | undefined)[]): FollowUp | undefined {
  const present = steps.filter((s) => s !== undefined);
  return present.length > 1 ? group({ steps: present }) : present[0];
}

/** Applies one entry's steps in order; false (logged) when a step failed or its kind is unknown. */
async function applyEntry(key: Key, name: string, entry: Entry, lent?: FollowUpContext): Promise<boolean> {
  const own = lent?.counts ? undefined : new CounterBatch();
  const context: FollowUpContext = { ...lent, counts: lent?.counts ?? own, known: new Map() };
  try {
    return await applySteps(key, name, entry, context);
  } finally {
    // Moved whether or not a step failed: a row a step wrote is counted now or never (applied
    // again, its write finds the row and counts nothing). A failed move is a drift, the repair's.
    await own?.flush().catch((error: unknown) => {
      logger.warn("a follow-up's kept counts were not moved; the repair recounts them", {
        row: key.pk,
        error: error as Error,
      });
    });
  }
}

async function applySteps(key: Key, name: string, entry: Entry, context: FollowUpContext): Promise<boolean> {
  for (const step of entry.steps) {
    try {
      await applyStep(step, context);
    } catch (error) {
      if (error instanceof UnknownKind) {
        logger.error('follow-up of an unknown kind left pending', { row: key.pk, kind: error.kind });
        return false;
      }
      // The entry stays: the sweeper applies it again; every step before this one is idempotent.
      logger.warn('follow-up failed; the sweeper applies it again', {
        row: key.pk,
        kind: step.kind,
        entry: name,
        error: error as Error,
      });
      return false;
    }
  }
  return true;
}

/**
 * Removes applied entries. When none is left (as of `view`, and no entry was recorded since: the
 * version holds) the row also leaves the sweeper's index; otherwise the index keeps the time of the
 * oldest entry left.
 */
async function clearApplied(key: Key, applied: string[], view: View): Promise<void> {
  if (!applied.length) return;
  const left = view.entries.filter(([name]) => !applied.includes(name));
  const b = new ExpressionBuilder();
  const removes = applied.map((name) => b.name(name));
  const sets: string[] = [];
  if (left.length) sets.push(`${b.name(OUTBOX_INDEX.sortKey)} = ${b.value(sortKey(left[0][1].at))}`);
  else removes.push(b.name(OUTBOX_INDEX.partitionKey), b.name(OUTBOX_INDEX.sortKey));
  const version = `${b.name(VERSION)} = ${b.value(view.version)}`;
  try {
    await dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key,
        UpdateExpression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}REMOVE ${removes.join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND ${version}`,
        ...b.attributes(),
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Another entry was recorded meanwhile: remove only ours; the row stays indexed for that one.
    const only = new ExpressionBuilder();
    await dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key,
        UpdateExpression: `REMOVE ${applied.map((name) => only.name(name)).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...only.attributes(),
      }),
    );
  }
}

/** The row's entries and version once `write` (recorded on `before`) is written. */
function afterWrite(before: Item | undefined, write: OutboxWrite): View {
  const old = before ? viewOf(before) : { entries: [], version: 0 };
  return {
    entries: [...old.entries.filter(([name]) => !write.replaced.includes(name)), [write.name, write.entry]],
    version: old.version + 1,
  };
}

/**
 * Inline: applies the entry a transition just recorded, then clears it. `before` is the row as it
 * was before the transition (its other entries, if any, are left to the sweeper). Never throws for a
 * failed step: the transition happened, and its follow-ups are pending until applied. With `keep`,
 * an applied entry is left on the row for the writer's next transition of it to remove
 * (recordFollowUps `replaces`), a write saved; answers whether every step was applied.
 */
export async function applyRecorded(
  key: Key,
  write: OutboxWrite,
  before: Item | undefined,
  context?: FollowUpContext,
  options: { keep?: boolean } = {},
): Promise<boolean> {
  const view = afterWrite(before, write);
  try {
    const applied = await applyEntry(key, write.name, write.entry, context);
    if (applied && !options.keep) await clearApplied(key, [write.name], view);
    return applied;
  } catch (error) {
    logger.warn('follow-ups not cleared; the sweeper does it', { row: key.pk, error: error as Error });
    return false;
  }
}

/**
 * Clears an entry its writer recorded and then did itself, without the generic apply: for a writer
 * that knows more than the sweeper does (e.g. that a row the step waits for is written now). Never
 * throws: an entry left is applied again by the sweeper, so its steps must allow that.
 */
export async function clearRecorded(key: Key, write: OutboxWrite, before?: Item): Promise<void> {
  const view = afterWrite(before, write);
  try {
    await clearApplied(key, [write.name], view);
  } catch (error) {
    logger.warn('follow-ups not cleared; the sweeper does it', { row: key.pk, error: error as Error });
  }
}

/**
 * Applies now every entry pending on one row, oldest first, and clears them (what the sweeper does
 * for a stale row, for a reader that found the row and cannot wait). Throws when a step fails.
 */
export async function applyPendingOf(key: Key): Promise<void> {
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }),
  );
  if (!out.Item) return;
  const view = viewOf(out.Item);
  const done: string[] = [];
  for (const [name, entry] of view.entries) {
    if (!(await applyEntry(key, name, entry))) break;
    done.push(name);
  }
  if (done.length) await clearApplied(key, done, view);
  if (done.length < view.entries.length) throw new Error(`follow-ups of ${key.pk} still pending`);
}

/**
 * The sweeper: every row whose oldest follow-up was recorded before `before` (default: a few
 * seconds ago) has its entries from before then applied, oldest first, and cleared. An entry whose
 * step fails stays, and so do the entries after it on that row (their order matters). Returns what
 * it did.
 */
export async function sweepFollowUps(
  opts: { before?: number; limit?: number } = {},
): Promise<{ rows: number; applied: number; failed: number }> {
  const before = opts.before ?? Date.now() - FOLLOW_UP_STALE_MS;
  const limit = opts.limit ?? 1_000;
  let rows = 0;
  let applied = 0;
  let failed = 0;
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await dynamoClient().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: OUTBOX_INDEX.name,
        KeyConditionExpression: '#p = :p AND #s <= :before',
        ExpressionAttributeNames: { '#p': OUTBOX_INDEX.partitionKey, '#s': OUTBOX_INDEX.sortKey },
        ExpressionAttributeValues: { ':p': OUTBOX_PARTITION, ':before': sortKey(before) },
        ExclusiveStartKey: start,
        Limit: Math.min(100, limit - rows),
      }),
    );
    for (const found of page.Items ?? []) {
      rows++;
      const key = { pk: found.pk as string, sk: found.sk as string };
      try {
        const out = await dynamoClient().send(
          new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }),
        );
        if (!out.Item) continue;
        const view = viewOf(out.Item);
        const done: string[] = [];
        for (const [name, entry] of view.entries) {
          if (entry.at > before) break;
          if (!(await applyEntry(key, name, entry))) {
            failed++;
            break;
          }
          done.push(name);
        }
        applied += done.length;
        if (done.length) await clearApplied(key, done, view);
        else if (!view.entries.length) await unindex(key, view);
      } catch (error) {
        failed++;
        logger.warn('follow-ups of a row not swept; the next sweep tries again', {
          row: key.pk,
          error: error as Error,
        });
      }
    }
    start = page.LastEvaluatedKey;
  } while (start && rows < limit);
  if (applied || failed) logger.info('follow-ups swept', { rows, applied, failed });
  return { rows, applied, failed };
}

/** A row indexed with no entry left (its last clear lost a race): takes it out of the index. */
async function unindex(key: Key, view: View): Promise<void> {
  const b = new ExpressionBuilder();
  await dynamoClient()
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key,
        UpdateExpression: `REMOVE ${b.name(OUTBOX_INDEX.partitionKey)}, ${b.name(OUTBOX_INDEX.sortKey)}`,
        ConditionExpression: `attribute_exists(pk) AND ${b.name(VERSION)} = ${b.value(view.version)}`,
        ...b.attributes(),
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/**
 * Applies steps at once, in order (a store kept in memory, for unit tests: nothing it writes
 * survives the process, so nothing is recorded for a sweeper).
 */
export async function applyNow(steps: FollowUp[]): Promise<void> {
  for (const step of steps) await applyStep(step);
}

/** The outbox attributes of a stored item, to carry over when the repository rewrites it whole. */
export function outboxAttributes(item: Item): Item {
  return Object.fromEntries(Object.entries(item).filter(([attr]) => attr.startsWith(OUTBOX_PREFIX)));
}
