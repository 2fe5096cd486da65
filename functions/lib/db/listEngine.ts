// Turns a ListQuery into DynamoDB calls on the one table (layout: entity.ts header) and runs them,
// at a cost that does not grow with the table (docs/data-model.md "List shapes").
//
// Plan: an equality on a key field (EntityDef.keys) is the partition key of its slot index,
// otherwise byType; a created_at range is a condition on the sort key (timeKey). What no key
// serves (other filters, keyword search, sorts on other fields) is read within the entity's read
// budget, newest first; past the budget the reply says `total_exact: false` and `searched: n`.
// Key-served lists count from the kept partition counter (counters.ts) and page from the
// cursor cache (cursors.ts), so a page costs O(page_size). A spread base (partitions.ts) is read
// bucket by bucket, newest first, its shards merged (spreadRead.ts); a created_at range counts whole
// buckets from their counters and keeps what it counted (rangeCount.ts).

import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type NativeAttributeValue,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Filter, ListQuery, SortBy } from '../../../shared/listQuery.js';
import { ListQueryError, PAGE_ALL_CAP } from '../../../shared/listQuery.js';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { readBucketCounters, readCounter } from './counters.js';
import { cursorHash, readCursor, rememberCursor } from './cursors.js';
import { backwardRead, pageOfBackward } from './nearerEnd.js';
import { type EntityDef, type ListOptions, type ListOutcome, READ_BUDGET, specOf } from './entity.js';
import { guessNewestBuckets, keepGuessedRead, readFromNewest, rememberNewestBucket } from './newestBuckets.js';
import { bucketOf, bucketSpan, type Partitioning, spreadOf } from './partitions.js';
import { rangeCount } from './rangeCount.js';
import { readSpread, type SpreadPosition } from './spreadRead.js';
import { ExpressionBuilder, type Item } from './expr.js';
import { INDEX_KEYS, isInternal, LC_PREFIX, parentKey } from './keys.js';
import { carries, type IndexName, SLOT_INDEXES, TABLE_INDEXES } from './tableSchema.js';
import { timeKeyBounds } from './timeKey.js';

// biome-ignore lint/suspicious/noExplicitAny: the engine is generic over every entity's row type
type AnyDef = EntityDef<any>;

/**
 * The value a key field has in its slot's partition key. Declared booleans are stored as
 * booleans or 1/0 and a missing flag is false, so they normalise to 'true'/'false'.
 */
export function slotValue(def: AnyDef, field: string, value: unknown): string | undefined {
  if (specOf(def, field)?.type === 'boolean') return value === true || value === 1 ? 'true' : 'false';
  return value === undefined || value === null ? undefined : String(value);
}

/** Which slot index serves a key field, if any. */
export function slotIndexOf(def: AnyDef, field: string): IndexName | undefined {
  const at = (def.keys ?? []).indexOf(field);
  return at < 0 ? undefined : SLOT_INDEXES[at];
}

export interface ListPlan {
  index: IndexName;
  /** The index partition read (a counter item exists per partition); the base of a spread one. */
  partition: string;
  /** Set when the partition is spread over buckets/shards (partitions.ts). */
  spread?: Required<Partitioning>;
  /** Placeholder of the partition value in the key condition (a spread read replaces it per bucket). */
  pkValue: string;
  /** Placeholders of the index's partition and sort key names. */
  pkName: string;
  skName: string;
  /** The created_at range, in ms, when one is a key condition. */
  range?: { start?: number; end?: number };
  keyCondition: string;
  /** What no key serves: applied to the rows read, within the read budget. */
  filter?: string;
  builder: ExpressionBuilder;
  /** Direction of key order (timeKey). */
  forward: boolean;
  /** Set when the first sort field is not the key: sort the rows read (within the budget) in memory. */
  memorySort?: SortBy[];
  /** True when the partition's kept counter is the answer's total (no range, no filter). */
  counted: boolean;
  /** A created_at range that cannot match (start after end): answer without reading. */
  empty: boolean;
  /**
   * The index's copies lack some field the entity's rows show (an INCLUDE or KEYS_ONLY index, a
   * field added since): the page's rows are read from the table by their keys (fetchRows).
   */
  fetch: boolean;
}

const INDEX_OF = new Map<string, (typeof TABLE_INDEXES)[number]>(TABLE_INDEXES.map((i) => [i.name, i]));

/**
 * Refuses a list that would filter, search, scope or sort on an attribute its index does not carry:
 * DynamoDB would read it as missing and the list would quietly match less. A declaration error, not
 * the caller's: tests/infra/indexes.test.ts walks every entity's lists so none reaches a request.
 */
export class UncarriedAttributeError extends Error {
  override name = 'UncarriedAttributeError';
}

/** Whether an index's copies hold every field a row of `def` shows (its declared, not hidden, fields). */
export function indexShowsRows(def: AnyDef, index: IndexName): boolean {
  const hidden = new Set<string>(def.hidden ?? []);
  const decl = INDEX_OF.get(index);
  return Boolean(decl) && Object.keys(def.fields).every((f) => hidden.has(f) || carries(decl as never, f));
}

/** The attributes a list of `def` may ask of its index: what it filters, searches, scopes or sorts by. */
export function queriedAttributes(def: AnyDef, field: string): string[] {
  const spec = specOf(def, field);
  return spec?.search ? [field, LC_PREFIX + field] : [field];
}

const KEY_ORDER_FIELDS = new Set(['created_at', 'id']);
/** DynamoDB allows at most 100 operands in one IN. */
const IN_LIMIT = 100;

/** Foreign ids narrow a partition most, then enums, then flags: the best slot to read. */
function selectivity(def: AnyDef, field: string): number {
  const type = specOf(def, field)?.type;
  return type === 'boolean' ? 2 : type === 'enum' ? 1 : 0;
}

export function planListQuery(def: AnyDef, query: ListQuery, options: ListOptions = {}): ListPlan {
  const b = new ExpressionBuilder();
  const hidden = new Set(def.hidden ?? []);
  const refuse = (field: string, what: string, offered: boolean) => {
    if (!offered || hidden.has(field) || isInternal(field)) throw new ListQueryError(field, `cannot ${what} ${field}`);
  };

  // 1. Refuse what the declaration does not offer (the web offers only what it declares).
  for (const field of Object.keys(query.filters)) refuse(field, 'filter by', Boolean(specOf(def, field)?.filter));
  for (const s of query.sort) refuse(s.field, 'sort by', Boolean(specOf(def, s.field)?.sort));
  const keywordFields = query.keyword
    ? query.keywordField.length
      ? query.keywordField
      : Object.keys(def.fields).filter((f) => specOf(def, f)?.search)
    : [];
  for (const f of keywordFields) refuse(f, 'search', Boolean(specOf(def, f)?.search));
  if (query.keyword && !keywordFields.length) throw new ListQueryError('keywordField', 'At least 1 search field');

  // 2. The partition: the most selective key equality, from the scope first, then the filters.
  const scope = { ...options.scope };
  const filters = { ...query.filters };
  const candidates = [
    ...Object.entries(scope).map(([field, value]) => ({ field, value, from: 'scope' as const })),
    ...Object.entries(filters).flatMap(([field, f]) => {
      const value = singleValue(f);
      return value === undefined ? [] : [{ field, value, from: 'filter' as const }];
    }),
  ].filter((c) => slotIndexOf(def, c.field) && slotValue(def, c.field, c.value) !== undefined);
  candidates.sort((x, y) => selectivity(def, x.field) - selectivity(def, y.field));
  let index: IndexName = 'byType';
  let partition: string = def.type;
  let spread = spreadOf(def);
  const chosen = candidates[0];
  if (chosen) {
    spread = spreadOf(def, chosen.field);
    index = slotIndexOf(def, chosen.field) as IndexName;
    partition = parentKey(def.type, chosen.field, slotValue(def, chosen.field, chosen.value));
    if (chosen.from === 'scope') delete scope[chosen.field];
    else delete filters[chosen.field];
  }
  const keys = INDEX_KEYS[index];
  const pkValue = b.value(partition);
  const pkName = b.name(keys.partitionKey);
  const keyParts = [`${pkName} = ${pkValue}`];

  // 3. created_at range -> sort-key condition.
  let empty = false;
  let ranged = false;
  let range: ListPlan['range'];
  const created = filters.created_at;
  if (created?.kind === 'range') {
    delete filters.created_at;
    ranged = true;
    range = { start: created.start, end: created.end };
    const { low, high } = timeKeyBounds(created.start, created.end);
    const sk = b.name(keys.sortKey);
    if (low && high) {
      if (low > high) empty = true;
      else keyParts.push(`${sk} BETWEEN ${b.value(low)} AND ${b.value(high)}`);
    } else if (low) keyParts.push(`${sk} >= ${b.value(low)}`);
    else if (high) keyParts.push(`${sk} <= ${b.value(high)}`);
  }

  // 4. Everything else filters the rows read (the bounded path).
  const conditions: string[] = [];
  for (const [field, value] of Object.entries(scope)) {
    refuse(field, 'scope by', true);
    conditions.push(
      specOf(def, field)?.type === 'boolean'
        ? (filterCondition(b, def, field, { kind: 'boolean', value: value === true || value === 1 }) as string)
        : `${b.name(field)} = ${b.value(value)}`,
    );
  }
  for (const [field, filter] of Object.entries(filters)) {
    const condition = filterCondition(b, def, field, filter);
    if (condition) conditions.push(condition);
  }
  if (query.keyword) {
    const anyField = keywordFields.map((f) => textContains(b, def, f, query.keyword as string));
    conditions.push(`(${anyField.join(' OR ')})`);
  }

  // 5. Order.
  const first = query.sort[0];
  const keyOrder = !first || KEY_ORDER_FIELDS.has(first.field);

  // 6. The index must carry what the read filters and sorts on (a missing attribute matches nothing).
  const asked = [
    ...Object.keys(scope),
    ...Object.keys(filters),
    ...(query.keyword ? keywordFields : []),
    ...(keyOrder ? [] : query.sort.map((s) => s.field)),
  ];
  const decl = INDEX_OF.get(index) as (typeof TABLE_INDEXES)[number];
  for (const field of asked) {
    const missing = queriedAttributes(def, field).find((a) => !carries(decl, a));
    if (missing) {
      throw new UncarriedAttributeError(
        `${def.type}: a list on ${index} reads ${missing}, which the index does not carry (tableSchema.ts)`,
      );
    }
  }
  return {
    index,
    partition,
    spread,
    pkValue,
    pkName,
    // Registered only when a range uses it: DynamoDB refuses unused names.
    skName: ranged ? b.name(keys.sortKey) : '',
    range,
    keyCondition: keyParts.join(' AND '),
    filter: conditions.length ? conditions.join(' AND ') : undefined,
    builder: b,
    forward: keyOrder ? first?.order === 'asc' : false,
    memorySort: keyOrder ? undefined : query.sort,
    counted: !ranged && !conditions.length,
    empty,
    fetch: !indexShowsRows(def, index),
  };
}

/** A filter that pins a field to one value can be a key condition. */
function singleValue(filter: Filter): string | number | boolean | undefined {
  if (filter.kind === 'enum' && filter.values.length === 1) return filter.values[0];
  if (filter.kind === 'number' && filter.op === '=') return filter.value;
  if (filter.kind === 'boolean') return filter.value;
  return undefined;
}

function textContains(b: ExpressionBuilder, def: AnyDef, field: string, text: string): string {
  // Searchable fields carry a lower-cased shadow, so case-insensitive search stays inside DynamoDB.
  if (specOf(def, field)?.search) return `contains(${b.name(LC_PREFIX + field)}, ${b.value(text.toLowerCase())})`;
  return `contains(${b.name(field)}, ${b.value(text)})`;
}

function filterCondition(b: ExpressionBuilder, def: AnyDef, field: string, filter: Filter): string | undefined {
  if (filter.kind === 'text') return textContains(b, def, field, filter.value);
  const f = b.name(field);
  switch (filter.kind) {
    case 'boolean':
      // Features store flags as booleans or 1/0 (the spec's `delete = 1` style); a missing flag is false.
      // Equalities, not IN: dynalite never matches `false` inside IN.
      return filter.value
        ? `(${f} = ${b.value(true)} OR ${f} = ${b.value(1)})`
        : `(attribute_not_exists(${f}) OR ${f} = ${b.value(false)} OR ${f} = ${b.value(0)})`;
    case 'enum': {
      if (!filter.values.length) return undefined;
      const groups: string[] = [];
      for (let i = 0; i < filter.values.length; i += IN_LIMIT) {
        const operands = filter.values.slice(i, i + IN_LIMIT).map((v) => b.value(v));
        groups.push(`${f} IN (${operands.join(', ')})`);
      }
      return groups.length === 1 ? groups[0] : `(${groups.join(' OR ')})`;
    }
    case 'number':
      return `${f} ${filter.op === '!=' ? '<>' : filter.op} ${b.value(filter.value)}`;
    case 'range':
      if (filter.start !== undefined && filter.end !== undefined) {
        return `${f} BETWEEN ${b.value(filter.start)} AND ${b.value(filter.end)}`;
      }
      if (filter.start !== undefined) return `${f} >= ${b.value(filter.start)}`;
      if (filter.end !== undefined) return `${f} <= ${b.value(filter.end)}`;
      return undefined;
  }
}

/** Largest Limit per call. */
const MAX_LIMIT = 2000;

/**
 * A jump to a page up to this far reads its pages beside the count (at most 100 rows at page size
 * 20); a farther one waits for the count, to read from the nearer end of the list (nearerEnd.ts).
 */
const NEAR_JUMP_PAGES = 5;

/** The same Query, the other way along its sort key. */
const backwards = (input: QueryCommandInput): QueryCommandInput => ({
  ...input,
  ScanIndexForward: input.ScanIndexForward === false,
});

function queryInput(plan: ListPlan): QueryCommandInput {
  return {
    TableName: config.tableName,
    IndexName: plan.index,
    KeyConditionExpression: plan.keyCondition,
    FilterExpression: plan.filter,
    ScanIndexForward: plan.forward,
    ReturnConsumedCapacity: 'TOTAL',
    ...plan.builder.attributes(),
  };
}

/** Runs a planned list; rows come back as stored (the repository strips internal attributes). */
export async function runListQuery(
  def: AnyDef,
  query: ListQuery,
  options: ListOptions = {},
): Promise<ListOutcome<Item>> {
  const plan = planListQuery(def, query, options);
  const out = await readPlanned(def, plan, query);
  if (!plan.fetch || !out.result.length) return out;
  const rows = await fetchRows(out.result, false);
  return { ...out, result: rows.items, consumed_rcu: round(out.consumed_rcu + rows.rcu) };
}

const BATCH_GET_MAX = 100;

/**
 * The rows behind index copies, whole, in the copies' order: one BatchGetItem per 100 (a page is
 * one). A row deleted since its copy was read is left out. `consistent` for internal reads
 * (`repo.all`), which act on what they read; a page reads as its index did, eventually.
 */
async function fetchRows(copies: Item[], consistent: boolean): Promise<{ items: Item[]; rcu: number }> {
  const found = new Map<string, Item>();
  let rcu = 0;
  for (let i = 0; i < copies.length; i += BATCH_GET_MAX) {
    let keys: Record<string, NativeAttributeValue>[] | undefined = copies
      .slice(i, i + BATCH_GET_MAX)
      .map((c) => ({ pk: c.pk, sk: c.sk }));
    for (let attempt = 0; keys?.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
      const out: BatchGetCommandOutput = await dynamoClient().send(
        new BatchGetCommand({
          RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: consistent } },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      for (const item of out.Responses?.[config.tableName] ?? []) found.set(`${item.pk}\0${item.sk}`, item);
      rcu += (out.ConsumedCapacity ?? []).reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      keys = out.UnprocessedKeys?.[config.tableName]?.Keys;
    }
  }
  const items = copies.flatMap((c) => found.get(`${c.pk}\0${c.sk}`) ?? []);
  return { items: items.filter((item) => item.deleted === undefined), rcu };
}

async function readPlanned(def: AnyDef, plan: ListPlan, query: ListQuery): Promise<ListOutcome<Item>> {
  // Direct callers skip the parser; keep paging arithmetic well-defined for them too.
  const page = Math.max(1, Math.floor(query.page));
  const page_size = Math.max(0, Math.floor(query.page_size));
  // "All" is one page of at most PAGE_ALL_CAP rows; total_count still tells the client how many match.
  const size = page_size === 0 ? PAGE_ALL_CAP : page_size;
  const at = page_size === 0 ? 1 : page;
  // A jump (query.jump, the table's hint) has no cursor to look for, so none is looked up. Without
  // the hint a page past the first looks for the cursor its neighbour kept first.
  const jump = Boolean(query.jump) && at > 1;
  const reply = (result: Item[], total_count: number, rcu: number, searched?: number): ListOutcome<Item> => ({
    result,
    total_count,
    page,
    page_size,
    ...(searched === undefined ? {} : { total_exact: false as const, searched }),
    consumed_rcu: round(rcu),
  });
  if (plan.empty) return reply([], 0, 0);
  const input = queryInput(plan);
  const budget = def.readBudget ?? READ_BUDGET;
  if (plan.spread) return runSpread(def, plan, input, { at, size, page_size, budget, jump }, reply);

  if (plan.filter || plan.memorySort) {
    // Bounded: read at most `budget` rows in key order (newest first), filter and sort what was read.
    const read = await readRows(input, { matches: Number.POSITIVE_INFINITY, scanned: budget });
    const rows = plan.memorySort ? sortRows(read.rows, plan.memorySort) : read.rows;
    return reply(rows.slice((at - 1) * size, at * size), rows.length, read.rcu, read.more ? read.scanned : undefined);
  }

  // Key-served: the count is kept (or, for a created_at range, counted within the budget) and the
  // page starts where the previous page ended (cursor cache), so earlier pages are not read again.
  const hash = cursorHash([plan.index, plan.keyCondition, plan.builder.values, plan.forward, size]);
  const [count, cursor, jumped] = await Promise.all([
    plan.counted
      ? readCounter(plan.partition).then((c) => ({ ...c, searched: undefined }))
      : rangeCount(def.type, input, plan, undefined, budget),
    at > 1 && !jump ? readCursor(def.type, hash, at) : Promise.resolve({ start: undefined, rcu: 0 }),
    // A jump near the front reads its pages beside the count; a farther one waits for the count
    // to read from the nearer end.
    jump && at <= NEAR_JUMP_PAGES
      ? readRows(input, { matches: at * size, scanned: Number.POSITIVE_INFINITY })
      : undefined,
  ]);
  const back = jumped || cursor.start ? undefined : backwardRead(at, size, plan.counted ? count.count : undefined);
  if (back) {
    const tail = back.rows
      ? await readRows(backwards(input), { matches: back.rows, scanned: Number.POSITIVE_INFINITY })
      : { rows: [], rcu: 0 };
    return reply(pageOfBackward(tail.rows, back), count.count, count.rcu + cursor.rcu + tail.rcu, count.searched);
  }
  const read =
    jumped ??
    (await readRows(
      input,
      { matches: cursor.start ? size : at * size, scanned: Number.POSITIVE_INFINITY },
      cursor.start,
    ));
  const pageRows = cursor.start ? read.rows : read.rows.slice((at - 1) * size);
  if (read.last && pageRows.length === size && page_size > 0) {
    rememberCursor(def.type, hash, at + 1, read.last);
  }
  // A page reached without a cursor keeps where it starts: its 5 s refresh reads one page, not `at`.
  const ownStart =
    at > 1 && !cursor.start && pageRows.length ? keyOf(input, read.rows[(at - 1) * size - 1]) : undefined;
  if (ownStart) rememberCursor(def.type, hash, at, ownStart);
  return reply(pageRows, count.count, count.rcu + cursor.rcu + read.rcu, count.searched);
}

type Reply = (result: Item[], total_count: number, rcu: number, searched?: number) => ListOutcome<Item>;

/** The buckets of a spread plan to read, in read order: those its counters name, and the current one. */
function bucketsOf(plan: ListPlan, counted: Map<string, number[]>): string[] {
  const spread = plan.spread as Required<Partitioning>;
  if (!spread.bucket) return [''];
  const names = new Set([...counted].filter(([, n]) => n.some((x) => x > 0)).map(([b]) => b));
  // A row written this instant may be in the list before its counter moved: always read the current bucket.
  names.add(bucketOf(Date.now(), spread.bucket));
  const { start, end } = plan.range ?? {};
  const within = [...names].filter((b) => {
    const span = bucketSpan(b);
    return (start === undefined || span.end >= start) && (end === undefined || span.start <= end);
  });
  within.sort();
  return plan.forward ? within : within.reverse();
}

/** Whether the read starts at the current bucket (newest first) and its counters hold no rows. */
function leadsWithEmptyCurrent(plan: ListPlan, buckets: string[], counted: Map<string, number[]>): boolean {
  const unit = plan.spread?.bucket;
  if (!unit || plan.forward || buckets[0] !== bucketOf(Date.now(), unit)) return false;
  return !counted.get(buckets[0])?.some((n) => n > 0);
}

/** Bucket bounds of the counters a range needs. */
function counterBounds(plan: ListPlan): { low?: string; high?: string } {
  const unit = plan.spread?.bucket;
  if (!unit || !plan.range) return {};
  const { start, end } = plan.range;
  return {
    low: start === undefined ? undefined : bucketOf(start, unit),
    high: end === undefined ? undefined : bucketOf(end, unit),
  };
}

/**
 * A list over a spread base: counts from the buckets' kept counters (a created_at range counts
 * rows only in the buckets it cuts, within the budget), rows from the newest bucket(s) merged
 * across shards, and page N+1 from page N's per-shard position (cursor cache).
 */
async function runSpread(
  def: AnyDef,
  plan: ListPlan,
  input: QueryCommandInput,
  paging: { at: number; size: number; page_size: number; budget: number; jump: boolean },
  reply: Reply,
): Promise<ListOutcome<Item>> {
  const spread = plan.spread as Required<Partitioning>;
  const { at, size, page_size, budget, jump } = paging;
  const keys = INDEX_KEYS[plan.index];
  const bounded = Boolean(plan.filter || plan.memorySort);
  const hash = cursorHash([plan.index, plan.keyCondition, plan.builder.values, plan.forward, size]);
  const readIn = (
    buckets: string[],
    stop: { matches: number; scanned: number; mark?: number },
    from?: SpreadPosition,
  ) => readSpread(input, plan.pkValue, plan.partition, spread, buckets, stop, keys, from);
  /**
   * `need` rows of `some` buckets from their start, no budget: the key-served reads below. Past page
   * 1 it also marks where the asked page starts (the rows of the pages before it).
   */
  const readFor = (some: string[], need: number) =>
    readIn(some, { matches: need, scanned: Number.POSITIVE_INFINITY, mark: at > 1 ? (at - 1) * size : undefined });
  // The first page newest first, what an open table asks every 5 s, is read with the counters
  // (newestBuckets.ts); so are the pages up to a jumped-to one, which have no cursor to wait for.
  const guess =
    !bounded && (at === 1 || (jump && at <= NEAR_JUMP_PAGES)) && !plan.forward && !plan.range && spread.bucket
      ? guessNewestBuckets(plan.partition, spread)
      : undefined;
  const [counters, cursor, guessed] = await Promise.all([
    readBucketCounters(plan.partition, spread, counterBounds(plan)),
    !bounded && at > 1 && !jump ? readCursor(def.type, hash, at) : Promise.resolve({ start: undefined, rcu: 0 }),
    guess ? readFor(guess, at * size) : undefined,
  ]);
  if (!plan.range) rememberNewestBucket(plan.partition, counters.buckets);
  const buckets = bucketsOf(plan, counters.buckets);
  const read = (stop: { matches: number; scanned: number }, from?: SpreadPosition) => readIn(buckets, stop, from);

  if (bounded) {
    const out = await read({ matches: Number.POSITIVE_INFINITY, scanned: budget });
    const rows = plan.memorySort ? sortRows(out.rows, plan.memorySort) : out.rows;
    return reply(
      rows.slice((at - 1) * size, at * size),
      rows.length,
      counters.rcu + out.rcu,
      out.more ? out.scanned : undefined,
    );
  }

  const from = cursor.start as SpreadPosition | undefined;
  const matches = from ? size : at * size;
  const kept =
    guess && guessed
      ? await keepGuessedRead({ buckets: guess, read: guessed }, buckets, matches, spread.shards, readFor)
      : undefined;
  const back = kept || from || plan.range ? undefined : backwardRead(at, size, counters.total);
  if (back) {
    const tail = back.rows
      ? await readSpread(
          backwards(input),
          plan.pkValue,
          plan.partition,
          spread,
          [...buckets].reverse(),
          { matches: back.rows, scanned: Number.POSITIVE_INFINITY },
          keys,
        )
      : { rows: [], rcu: 0 };
    const guessLost = guessed ? guessed.rcu : 0;
    return reply(pageOfBackward(tail.rows, back), counters.total, counters.rcu + cursor.rcu + tail.rcu + guessLost);
  }
  const [count, out] = await Promise.all([
    plan.range
      ? rangeCount(def.type, input, plan, counters.buckets, budget)
      : Promise.resolve({ count: counters.total, rcu: 0, searched: undefined }),
    kept ??
      (from
        ? read({ matches, scanned: Number.POSITIVE_INFINITY }, from)
        : readFromNewest(
            buckets,
            leadsWithEmptyCurrent(plan, buckets, counters.buckets),
            matches,
            spread.shards,
            readFor,
          )),
  ]);
  // A wrong guess was read all the same: its units count.
  const guessRcu = guessed && !kept ? guessed.rcu : 0;
  const pageRows = from ? out.rows : out.rows.slice((at - 1) * size);
  if (out.next && pageRows.length === size && page_size > 0) {
    rememberCursor(def.type, hash, at + 1, out.next as unknown as Item);
  }
  // A page reached without a cursor keeps where it starts: its 5 s refresh reads one page, not `at`.
  if (!from && out.marked && pageRows.length) rememberCursor(def.type, hash, at, out.marked as unknown as Item);
  return reply(pageRows, count.count, counters.rcu + cursor.rcu + count.rcu + out.rcu + guessRcu, count.searched);
}

/** Every row of a partition, in key order, without budget: internal reads (`repo.all`). */
export async function readAllRows(def: AnyDef, options: ListOptions = {}): Promise<Item[]> {
  const query = {
    page: 1,
    page_size: 0,
    sort: [{ field: 'created_at', order: 'asc' as const }],
    keywordField: [],
    filters: {},
  };
  const plan = planListQuery({ ...def, fields: { ...def.fields, created_at: 'datetime' } }, query, options);
  const copies = await readAllCopies(plan);
  // Internal reads act on whole rows (hidden fields, follow-ups): an index that copies less is only
  // where to find them.
  const whole = INDEX_OF.get(plan.index)?.projection.type === 'ALL';
  return whole ? copies : (await fetchRows(copies, true)).items;
}

async function readAllCopies(plan: ListPlan): Promise<Item[]> {
  const stop = { matches: Number.POSITIVE_INFINITY, scanned: Number.POSITIVE_INFINITY };
  if (plan.spread) {
    const counters = await readBucketCounters(plan.partition, plan.spread);
    const buckets = bucketsOf(plan, counters.buckets);
    return (
      await readSpread(
        queryInput(plan),
        plan.pkValue,
        plan.partition,
        plan.spread,
        buckets,
        stop,
        INDEX_KEYS[plan.index],
      )
    ).rows;
  }
  return (await readRows(queryInput(plan), stop)).rows;
}

interface Read {
  rows: Item[];
  rcu: number;
  scanned: number;
  /** Rows remain past what was read. */
  more: boolean;
  /** Key of the last row kept: where the next page starts. */
  last?: Item;
}

async function readRows(
  input: QueryCommandInput,
  stop: { matches: number; scanned: number },
  from?: QueryCommandInput['ExclusiveStartKey'],
): Promise<Read> {
  const rows: Item[] = [];
  let rcu = 0;
  let scanned = 0;
  let start = from;
  const filtered = Boolean(input.FilterExpression);
  // Limit caps rows *read*, not rows matched: exact when unfiltered, growing when a filter drops rows.
  let limit = filtered ? 50 : MAX_LIMIT;
  do {
    const room = Math.min(stop.scanned - scanned, filtered ? limit : stop.matches - rows.length, MAX_LIMIT);
    const out = await dynamoClient().send(new QueryCommand({ ...input, ExclusiveStartKey: start, Limit: room }));
    rows.push(...(out.Items ?? []));
    rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
    scanned += out.ScannedCount ?? 0;
    start = out.LastEvaluatedKey;
    if (filtered) limit = Math.min(limit * 4, MAX_LIMIT);
  } while (start && rows.length < stop.matches && scanned < stop.scanned);
  const kept = Number.isFinite(stop.matches) ? rows.slice(0, stop.matches) : rows;
  const last = kept.length === rows.length ? start : keyOf(input, kept[kept.length - 1]);
  return { rows: kept, rcu, scanned, more: Boolean(start), last: kept.length ? last : undefined };
}

/** The ExclusiveStartKey that resumes a Query right after `item`. */
function keyOf(input: QueryCommandInput, item: Item | undefined): Item | undefined {
  if (!item) return undefined;
  const index = INDEX_KEYS[input.IndexName as IndexName];
  return {
    pk: item.pk,
    sk: item.sk,
    [index.partitionKey]: item[index.partitionKey],
    [index.sortKey]: item[index.sortKey],
  };
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Stable multi-field sort; missing values sort first in asc, the id breaks ties. */
export function sortRows(rows: Item[], sort: SortBy[]): Item[] {
  const compare = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === undefined || a === null) return -1;
    if (b === undefined || b === null) return 1;
    if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
    if (typeof a === 'object' || typeof b === 'object') return compare(JSON.stringify(a), JSON.stringify(b));
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return [...rows].sort((x, y) => {
    for (const s of sort) {
      const c = compare(x[s.field], y[s.field]);
      if (c) return s.order === 'asc' ? c : -c;
    }
    return (x.id as number) - (y.id as number);
  });
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
