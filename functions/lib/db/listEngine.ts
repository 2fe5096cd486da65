// Turns a ListQuery into DynamoDB Query calls on the one table (layout: entity.ts header) and runs them.
//
// Plan: an equality on a parent field is the partition key of byParent/byParent2, otherwise byType;
// a created_at range is a condition on the sort key (timeKey). Everything else is a FilterExpression,
// which DynamoDB applies after reading, so it narrows the answer but not the read cost.
// Key order (created_at / id) pages by reading only until the page is full; any other sort has to
// read every matching row and sort in memory (fine up to ~10,000 rows, see docs/data-model.md).

import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Filter, ListQuery, SortBy } from '../../../shared/listQuery.js';
import { ListQueryError } from '../../../shared/listQuery.js';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import type { EntityDef, ListOptions, ListOutcome } from './entity.js';
import { TABLE_INDEXES, type IndexName } from './tableSchema.js';
import { timeKeyBounds } from './timeKey.js';

export type Item = Record<string, NativeAttributeValue>;
// biome-ignore lint/suspicious/noExplicitAny: the engine is generic over every entity's row type
type AnyDef = EntityDef<any>;

/** Key attributes of each index, from the one schema definition. */
export const INDEX_KEYS = Object.fromEntries(TABLE_INDEXES.map((i) => [i.name, i])) as Record<
  IndexName,
  (typeof TABLE_INDEXES)[number]
>;

export const LC_PREFIX = '_lc_';
const INTERNAL = new Set([
  'pk',
  'sk',
  'deleted',
  'expires_at',
  ...TABLE_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
]);

/** Attributes of the storage layout that callers never see nor write. */
export function isInternal(attr: string): boolean {
  return INTERNAL.has(attr) || attr.startsWith(LC_PREFIX);
}

/** Partition key of a parent index, e.g. 'log_login:task_id=7'. */
export function parentKey(type: string, field: string, value: unknown): string {
  return `${type}:${field}=${String(value)}`;
}

/** Which parent index serves a field, if any. */
export function parentIndexOf(def: AnyDef, field: string): 'byParent' | 'byParent2' | undefined {
  if (def.parents?.byParent === field) return 'byParent';
  if (def.parents?.byParent2 === field) return 'byParent2';
  return undefined;
}

/**
 * Collects `#n`/`:v` placeholders so every expression is safe from reserved words
 * (`name`, `status`, `result`...) and from values that look like syntax.
 */
export class ExpressionBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, NativeAttributeValue> = {};
  private readonly byAttr = new Map<string, string>();

  name(attr: string): string {
    let key = this.byAttr.get(attr);
    if (!key) {
      key = `#n${this.byAttr.size}`;
      this.byAttr.set(attr, key);
      this.names[key] = attr;
    }
    return key;
  }

  value(v: NativeAttributeValue): string {
    const key = `:v${Object.keys(this.values).length}`;
    this.values[key] = v;
    return key;
  }

  /** DynamoDB refuses empty maps, so absent means "none". */
  attributes(): Pick<QueryCommandInput, 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
    return {
      ExpressionAttributeNames: Object.keys(this.names).length ? this.names : undefined,
      ExpressionAttributeValues: Object.keys(this.values).length ? this.values : undefined,
    };
  }
}

export interface ListPlan {
  index: IndexName;
  keyCondition: string;
  filter?: string;
  builder: ExpressionBuilder;
  /** Direction of key order (timeKey). */
  forward: boolean;
  /** Set when the first sort field is not the key: read all, then sort these in memory. */
  memorySort?: SortBy[];
  /** A created_at range that cannot match (start after end): answer without reading. */
  empty: boolean;
}

const KEY_ORDER_FIELDS = new Set(['created_at', 'id']);
/** DynamoDB allows at most 100 operands in one IN. */
const IN_LIMIT = 100;

export function planListQuery(def: AnyDef, query: ListQuery, options: ListOptions = {}): ListPlan {
  const b = new ExpressionBuilder();
  const hidden = new Set(def.hidden ?? []);
  const refuse = (field: string, what: string) => {
    if (hidden.has(field) || isInternal(field)) throw new ListQueryError(field, `cannot ${what} ${field}`);
  };

  // 1. The partition: a parent equality from the scope first, then from the filters.
  const scope = { ...options.scope };
  const filters = { ...query.filters };
  let index: IndexName = 'byType';
  let partition: string = def.type;
  const scopeToParent = (field: string, value: unknown) => {
    index = parentIndexOf(def, field)!;
    partition = parentKey(def.type, field, value);
  };
  const scopedParent = Object.keys(scope).find((f) => parentIndexOf(def, f));
  if (scopedParent) {
    scopeToParent(scopedParent, scope[scopedParent]);
    delete scope[scopedParent];
  } else {
    const filtered = Object.entries(filters).find(
      ([f, flt]) => parentIndexOf(def, f) && singleValue(flt) !== undefined,
    );
    if (filtered) {
      scopeToParent(filtered[0], singleValue(filtered[1]));
      delete filters[filtered[0]];
    }
  }
  const keys = INDEX_KEYS[index];
  const keyParts = [`${b.name(keys.partitionKey)} = ${b.value(partition)}`];

  // 2. created_at range -> sort-key condition.
  let empty = false;
  const created = filters.created_at;
  if (created?.kind === 'range') {
    delete filters.created_at;
    const { low, high } = timeKeyBounds(created.start, created.end);
    const sk = b.name(keys.sortKey);
    if (low && high) {
      if (low > high) empty = true;
      else keyParts.push(`${sk} BETWEEN ${b.value(low)} AND ${b.value(high)}`);
    } else if (low) keyParts.push(`${sk} >= ${b.value(low)}`);
    else if (high) keyParts.push(`${sk} <= ${b.value(high)}`);
  }

  // 3. Everything else filters the rows read.
  const conditions: string[] = [];
  for (const [field, value] of Object.entries(scope)) {
    refuse(field, 'scope by');
    conditions.push(`${b.name(field)} = ${b.value(value)}`);
  }
  for (const [field, filter] of Object.entries(filters)) {
    refuse(field, 'filter by');
    const condition = filterCondition(b, def, field, filter);
    if (condition) conditions.push(condition);
  }
  if (query.keyword) {
    const fields = query.keywordField.length ? query.keywordField : (def.searchable ?? []);
    if (!fields.length) throw new ListQueryError('keywordField', 'At least 1 search field');
    const anyField = fields.map((f) => {
      refuse(f, 'search');
      return textContains(b, def, f, query.keyword!);
    });
    conditions.push(`(${anyField.join(' OR ')})`);
  }

  // 4. Order.
  for (const s of query.sort) refuse(s.field, 'sort by');
  const first = query.sort[0];
  const keyOrder = !first || KEY_ORDER_FIELDS.has(first.field);
  return {
    index,
    keyCondition: keyParts.join(' AND '),
    filter: conditions.length ? conditions.join(' AND ') : undefined,
    builder: b,
    forward: keyOrder ? first?.order === 'asc' : false,
    memorySort: keyOrder ? undefined : query.sort,
    empty,
  };
}

/** A filter that pins a parent field to one value can be a key condition. */
function singleValue(filter: Filter): string | number | undefined {
  if (filter.kind === 'enum' && filter.values.length === 1) return filter.values[0];
  if (filter.kind === 'number' && filter.op === '=') return filter.value;
  return undefined;
}

function textContains(b: ExpressionBuilder, def: AnyDef, field: string, text: string): string {
  // Searchable fields carry a lower-cased shadow, so case-insensitive search stays inside DynamoDB.
  if (def.searchable?.includes(field)) return `contains(${b.name(LC_PREFIX + field)}, ${b.value(text.toLowerCase())})`;
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

/** Largest Limit per call when a filter makes the needed read size unknown. */
const MAX_LIMIT = 2000;

/** Runs a planned list; rows come back as stored (the repository strips internal attributes). */
export async function runListQuery(
  def: AnyDef,
  query: ListQuery,
  options: ListOptions = {},
): Promise<ListOutcome<Item>> {
  const plan = planListQuery(def, query, options);
  // Direct callers skip the parser; keep paging arithmetic well-defined for them too.
  const page = Math.max(1, Math.floor(query.page));
  const page_size = Math.max(0, Math.floor(query.page_size));
  const outcome = (result: Item[], total_count: number, consumed_rcu: number): ListOutcome<Item> => ({
    result,
    total_count,
    page,
    page_size,
    consumed_rcu: round(consumed_rcu),
  });
  if (plan.empty) return outcome([], 0, 0);

  const input: QueryCommandInput = {
    TableName: config.tableName,
    IndexName: plan.index,
    KeyConditionExpression: plan.keyCondition,
    FilterExpression: plan.filter,
    ScanIndexForward: plan.forward,
    ReturnConsumedCapacity: 'TOTAL',
    ...plan.builder.attributes(),
  };

  if (plan.memorySort || page_size === 0) {
    const all = await readRows(input, Number.POSITIVE_INFINITY, Boolean(plan.filter));
    const rows = plan.memorySort ? sortRows(all.rows, plan.memorySort) : all.rows;
    const pageRows = page_size === 0 ? rows : rows.slice((page - 1) * page_size, page * page_size);
    return outcome(pageRows, rows.length, all.rcu);
  }

  // Key order: stop reading once the page is full; the count reads the rest in parallel.
  const [read, count] = await Promise.all([readRows(input, page * page_size, Boolean(plan.filter)), countRows(input)]);
  return outcome(read.rows.slice((page - 1) * page_size), count.count, read.rcu + count.rcu);
}

async function readRows(
  input: QueryCommandInput,
  need: number,
  filtered: boolean,
): Promise<{ rows: Item[]; rcu: number }> {
  const rows: Item[] = [];
  let rcu = 0;
  let start: QueryCommandInput['ExclusiveStartKey'];
  // Limit caps rows *read*, not rows matched: exact when unfiltered, growing when a filter drops rows.
  let limit = Number.isFinite(need) ? Math.max(need, filtered ? 50 : 1) : undefined;
  do {
    const remaining = need - rows.length;
    const out = await dynamoClient().send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: start,
        Limit: limit === undefined ? undefined : filtered ? limit : Math.min(limit, remaining),
      }),
    );
    rows.push(...(out.Items ?? []));
    rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
    start = out.LastEvaluatedKey;
    if (limit !== undefined && filtered) limit = Math.min(limit * 2, MAX_LIMIT);
  } while (start && rows.length < need);
  return { rows: Number.isFinite(need) ? rows.slice(0, need) : rows, rcu };
}

async function countRows(input: QueryCommandInput): Promise<{ count: number; rcu: number }> {
  let count = 0;
  let rcu = 0;
  let start: QueryCommandInput['ExclusiveStartKey'];
  do {
    const out = await dynamoClient().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return { count, rcu };
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
