// Kept rollups: items a feature adds numbers to with one `ADD` per item per event, so a dashboard
// reads a few small items instead of the rows they summarise (docs/data-model.md "Rollups").
//
// An item is `pk = rollup#${kind}#${partition}`, `sk = ${sort}`; its numbers are top-level
// attributes (ADD works only on those), named by the feature (a duration sketch's buckets,
// `runs`, `r12` for site 12...). A Query of one partition reads every item of it, in sort order,
// so a feature lays items out by what one screen reads together. Rollup items sit in no index and
// have no counters: the lists never see them. The feature's repair path rebuilds them whole
// (`putRollup`, `deleteRollup`, `scanRollups`) from the rows it keeps.
//
// Packing. Numbers are sums, so an item may hold part of them as loose attributes and the rest in
// one `packed` JSON string: a reader sums both (`strip`). A whole write (`putRollup`) packs every
// number; an ADD that leaves an item with more than LOOSE_LIMIT loose numbers packs them, as a
// write conditioned on the item's version `_v` (every ADD moves it), so a concurrent ADD is never
// lost: it lands loose and is summed. A heatmap day holding 100 sites × 4 numbers is then one
// string instead of 400 attributes, which is what a reader's time goes on (dynalite above all).
// Only numbers are summed: a value set rather than added (a last status) must be a string.
//
// Columns. A kind whose numbers are a few fields of many keys (`r12 f12 k12 g12`: site 12's runs,
// failures...) packs them by key instead (`definePacking`): `cols` = 'r,f,k,g|12:112,3,2 13:98'
// (zeros left empty, trailing ones dropped), a third of the JSON's bytes and read units, and it may
// pack after fewer loose numbers: a past day left with many loose numbers is what reads slowest.

import {
  DeleteCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { ConditionFailedError } from './entity.js';
import { isConditionFailure, onConditionFailure } from './conditionFailure.js';

export const ROLLUP_PREFIX = 'rollup#';

/** Loose numbers an item may hold before an ADD packs them (unless its kind's packing says otherwise). */
export const LOOSE_LIMIT = 48;
const PACKED = 'packed';
const COLUMNS = 'cols';
const VERSION = '_v';

/** How the items of one kind keep their numbers (definePacking). */
export interface RollupPacking {
  /** Loose numbers an item may hold before an ADD packs them. */
  looseLimit: number;
  /** Name prefixes packed by the rest of the name, in this order (e.g. `['r', 'f']`: `r12`, `f12` → `12:<r>,<f>`). */
  columns?: readonly string[];
}

const packings = new Map<string, RollupPacking>();
/** A name's rest that a column can hold: none of the separators. */
const COLUMN_KEY = /^[^\s:,|]+$/;

/** Sets how a kind's items pack; the module that owns the kind calls it once, beside the kind's name. */
export function definePacking(kind: string, packing: RollupPacking): void {
  if (packing.columns?.some((c) => !c || /[\s:,|]/.test(c)))
    throw new Error(`rollup kind ${kind}: a column prefix is empty or holds a separator`);
  packings.set(kind, packing);
}

const packingOf = (kind: string): RollupPacking => packings.get(kind) ?? { looseLimit: LOOSE_LIMIT };

/** Numbers split into the columns' text (names that fit a column) and the rest (JSON). */
function encode(sums: Record<string, number>, columns: readonly string[] = []) {
  const rows = new Map<string, number[]>();
  const rest: Record<string, number> = {};
  for (const [name, n] of Object.entries(sums)) {
    if (n === 0) continue;
    const c = columns.findIndex((prefix) => name.startsWith(prefix) && COLUMN_KEY.test(name.slice(prefix.length)));
    if (c < 0) {
      rest[name] = n;
      continue;
    }
    const key = name.slice(columns[c].length);
    let row = rows.get(key);
    if (!row) {
      row = [];
      rows.set(key, row);
    }
    row[c] = n;
  }
  const body = [...rows].map(([key, row]) => `${key}:${Array.from(row, (n) => (n ? String(n) : '')).join(',')}`);
  return {
    columnar: body.length ? `${columns.join(',')}|${body.join(' ')}` : undefined,
    json: Object.keys(rest).length ? JSON.stringify(rest) : undefined,
  };
}

/** Adds the numbers of a columns' text into `sums`. */
function decodeColumns(text: string, sums: Record<string, number>): void {
  const bar = text.indexOf('|');
  const columns = text.slice(0, bar).split(',');
  for (const entry of text.slice(bar + 1).split(' ')) {
    const colon = entry.indexOf(':');
    const key = entry.slice(0, colon);
    const values = entry.slice(colon + 1).split(',');
    for (let i = 0; i < values.length; i++) {
      if (!values[i]) continue;
      const name = columns[i] + key;
      sums[name] = (sums[name] ?? 0) + Number(values[i]);
    }
  }
}

export interface RollupKey {
  /** The feature's kind of rollup, e.g. `check`. No `#`. */
  kind: string;
  /** What one Query reads together, e.g. `s=12` (a site's days). */
  partition: string;
  /** Order within the partition, e.g. a day `2026-11-27` or `2026-11-27#1.3`. */
  sort: string;
}

export type RollupValues = Record<string, NativeAttributeValue>;

export interface RollupAdd extends RollupKey {
  /** Numbers added with `ADD` (negative ones subtract). */
  add: Record<string, number>;
  /** Values set in the same write (e.g. the last status); the last writer's stay. */
  set?: RollupValues;
}

/** A read item: its sort key and values, without the storage keys. */
export interface RollupItem {
  sort: string;
  values: RollupValues;
}

const keyOf = ({ kind, partition, sort }: RollupKey) => ({ pk: `${ROLLUP_PREFIX}${kind}#${partition}`, sk: sort });

/** `expect` as a condition: each attribute equals the value, or (undefined) the item does not exist yet. */
function condition(expect: RollupValues | undefined, names: Record<string, string>, values: RollupValues) {
  if (!expect) return undefined;
  return Object.entries(expect)
    .map(([attr, value], i) => {
      if (value === undefined) return 'attribute_not_exists(pk)';
      names[`#e${i}`] = attr;
      values[`:e${i}`] = value;
      return `#e${i} = :e${i}`;
    })
    .join(' AND ');
}

const failed = () => new ConditionFailedError('the rollup item is not as expected');

/** An ADD made once per cause: the cause's id is kept in a number set of the item itself (`attr`). */
export interface RollupOnce {
  /** The set's attribute, e.g. `ids`. Readers never see it (only numbers and strings are values). */
  attr: string;
  /** The cause, e.g. the subtask's id. */
  id: number;
}

/**
 * One `ADD` (and `SET`) on one item, creating it when missing. With `expect` the write happens only
 * while the item holds those values: ConditionFailedError otherwise. With `once` the write happens
 * only if the item's set does not hold the cause yet, and puts it there in the same write: applied
 * again, it adds nothing (answers false).
 */
export async function addToRollup(
  change: RollupAdd,
  options: { expect?: RollupValues; once?: RollupOnce } = {},
): Promise<boolean> {
  const adds = Object.entries(change.add).filter(([, n]) => n !== 0);
  const sets = Object.entries(change.set ?? {});
  if (!adds.length && !sets.length) return false;
  const names: Record<string, string> = { '#v': VERSION };
  const values: RollupValues = { ':one': 1 };
  const addClauses = ['#v :one'];
  const { once } = options;
  if (once) {
    names['#once'] = once.attr;
    values[':onceId'] = once.id;
    values[':onceSet'] = new Set([once.id]);
    addClauses.push('#once :onceSet');
  }
  for (const [i, [attr, n]] of adds.entries()) {
    names[`#a${i}`] = attr;
    values[`:a${i}`] = n;
    addClauses.push(`#a${i} :a${i}`);
  }
  const clauses = [`ADD ${addClauses.join(', ')}`];
  if (sets.length) {
    clauses.push(
      `SET ${sets
        .map(([attr, v], i) => {
          names[`#s${i}`] = attr;
          values[`:s${i}`] = v;
          return `#s${i} = :s${i}`;
        })
        .join(', ')}`,
    );
  }
  const conditions = [condition(options.expect, names, values), once && 'NOT contains(#once, :onceId)'].filter(
    (c): c is string => Boolean(c),
  );
  let out: { Attributes?: RollupValues };
  try {
    out = await onConditionFailure(
      dynamoClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: keyOf(change),
          UpdateExpression: clauses.join(' '),
          ConditionExpression: conditions.length ? conditions.join(' AND ') : undefined,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
      failed,
    );
  } catch (error) {
    // Refused because the cause is in the set already (an `expect` that failed is the caller's).
    if (once && error instanceof ConditionFailedError && !options.expect) return false;
    throw error;
  }
  const item = out.Attributes ?? {};
  const packing = packingOf(change.kind);
  if (looseNumbers(item).length > packing.looseLimit) await pack(change, item, packing);
  return true;
}

/** The numbers an item holds as attributes of their own. */
const looseNumbers = (item: RollupValues) =>
  Object.entries(item).filter(([attr, v]) => typeof v === 'number' && attr !== VERSION);

/**
 * Moves an item's loose numbers into its packed string, while it is still the version read: an
 * ADD in between wins, and its numbers are packed by a later one.
 */
async function pack(key: RollupKey, item: RollupValues, packing: RollupPacking): Promise<void> {
  const loose = looseNumbers(item);
  const names: Record<string, string> = { '#v': VERSION };
  const values: RollupValues = { ':one': 1, ':version': item[VERSION] };
  const remove = loose.map(([attr], i) => {
    names[`#r${i}`] = attr;
    return `#r${i}`;
  });
  // Every number of the item goes into its packed forms, each set or, when it holds none, removed.
  const { json, columnar } = encode(numbersOf(item), packing.columns);
  const sets: string[] = [];
  for (const [attr, text, ref] of [
    [PACKED, json, 'p'],
    [COLUMNS, columnar, 'c'],
  ] as const) {
    if (text !== undefined) {
      names[`#${ref}`] = attr;
      values[`:${ref}`] = text;
      sets.push(`#${ref} = :${ref}`);
    } else if (item[attr] !== undefined) {
      names[`#${ref}`] = attr;
      remove.push(`#${ref}`);
    }
  }
  await dynamoClient()
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keyOf(key),
        UpdateExpression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}ADD #v :one REMOVE ${remove.join(', ')}`,
        ConditionExpression: '#v = :version',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    )
    .catch((error) => {
      // Another writer moved the item meanwhile: its numbers stay loose, summed, until a later pack.
      if (!isConditionFailure(error)) throw error;
    });
}

/** Every number of an item, packed (JSON and columns) and loose summed. */
function numbersOf(item: RollupValues): Record<string, number> {
  const sums: Record<string, number> =
    typeof item[PACKED] === 'string' ? (JSON.parse(item[PACKED] as string) as Record<string, number>) : {};
  if (typeof item[COLUMNS] === 'string') decodeColumns(item[COLUMNS] as string, sums);
  for (const attr in item) {
    const n = item[attr];
    if (typeof n === 'number' && attr !== VERSION) sums[attr] = (sums[attr] ?? 0) + n;
  }
  return sums;
}

/** Writes an item whole (a rebuild, a window's roll); with `expect`, only while it holds those values. Strings stay as they are, numbers are packed. */
export async function putRollup(
  key: RollupKey,
  itemValues: RollupValues,
  options: { expect?: RollupValues } = {},
): Promise<void> {
  const names: Record<string, string> = {};
  const values: RollupValues = {};
  const expectAll = condition(options.expect, names, values);
  // Written whole, its numbers packed as the kind packs them: the sums are read as one or two strings.
  const numbers = Object.fromEntries(Object.entries(itemValues).filter(([, v]) => typeof v === 'number' && v !== 0));
  const others = Object.fromEntries(Object.entries(itemValues).filter(([, v]) => typeof v !== 'number'));
  const { json, columnar } = encode(numbers, packingOf(key.kind).columns);
  await onConditionFailure(
    dynamoClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          ...others,
          ...(json ? { [PACKED]: json } : {}),
          ...(columnar ? { [COLUMNS]: columnar } : {}),
          [VERSION]: 0,
          ...keyOf(key),
        },
        ConditionExpression: expectAll,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      }),
    ),
    failed,
  );
}

export async function deleteRollup(key: RollupKey): Promise<void> {
  await dynamoClient().send(new DeleteCommand({ TableName: config.tableName, Key: keyOf(key) }));
}

/** What a reader sees: the feature's values, packed and loose numbers summed, no storage attributes. */
const strip = (item: RollupValues): RollupItem => {
  // The sums first (a packed item's parsed object, no copy), then the strings beside them.
  const values: RollupValues = numbersOf(item);
  for (const attr in item)
    if (typeof item[attr] === 'string' && attr !== 'pk' && attr !== 'sk' && attr !== PACKED && attr !== COLUMNS)
      values[attr] = item[attr];
  return { sort: item.sk as string, values };
};

/** One item, read consistently (a writer deciding from it). */
export async function getRollup(key: RollupKey): Promise<RollupValues | undefined> {
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: keyOf(key), ConsistentRead: true }),
  );
  return out.Item ? strip(out.Item).values : undefined;
}

/** The raw items of a partition whose sort key lies in [from, to], eventually consistent, with their read units. */
async function queryItems(
  kind: string,
  partition: string,
  range: { from?: string; to?: string },
  each: (item: RollupValues) => void,
): Promise<number> {
  const { pk } = keyOf({ kind, partition, sort: '' });
  const keyCondition = ['pk = :pk'];
  const values: RollupValues = { ':pk': pk };
  if (range.from !== undefined && range.to !== undefined) keyCondition.push('sk BETWEEN :from AND :to');
  else if (range.from !== undefined) keyCondition.push('sk >= :from');
  else if (range.to !== undefined) keyCondition.push('sk <= :to');
  if (range.from !== undefined) values[':from'] = range.from;
  if (range.to !== undefined) values[':to'] = range.to;
  let rcu = 0;
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: keyCondition.join(' AND '),
        ExpressionAttributeValues: values,
        ReturnConsumedCapacity: 'TOTAL',
        ExclusiveStartKey: start,
      }),
    );
    rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
    for (const item of out.Items ?? []) each(item);
    start = out.LastEvaluatedKey;
  } while (start);
  return rcu;
}

/**
 * Every item of a partition whose sort key lies in [from, to] (either end open), in sort order,
 * eventually consistent: what a dashboard reads, with the read units it cost.
 */
export async function queryRollups(
  kind: string,
  partition: string,
  range: { from?: string; to?: string } = {},
): Promise<{ items: RollupItem[]; rcu: number }> {
  const items: RollupItem[] = [];
  const rcu = await queryItems(kind, partition, range, (item) => items.push(strip(item)));
  return { items, rcu };
}

/** An item of a kind packed by columns, read by key: each key's numbers in the columns' order (0 for none). */
export interface RollupRows {
  sort: string;
  rows: Map<string, number[]>;
  /** The item's string values (a flag its writer set), beside its numbers. */
  strings: Record<string, string>;
}

/**
 * queryRollups for a kind packed by columns, without a name per number: each item's keys with
 * their columns' sums (packed, JSON and loose alike). Numbers no column holds are left out.
 */
export async function queryRollupRows(
  kind: string,
  partition: string,
  range: { from?: string; to?: string } = {},
): Promise<{ items: RollupRows[]; rcu: number }> {
  const { columns } = packingOf(kind);
  if (!columns) throw new Error(`rollup kind ${kind} is not packed by columns`);
  const items: RollupRows[] = [];
  const rcu = await queryItems(kind, partition, range, (item) =>
    items.push({ sort: item.sk as string, rows: rowsOf(item, columns), strings: stringsOf(item) }),
  );
  return { items, rcu };
}

/** An item's own string values (not its keys or packed numbers). */
function stringsOf(item: RollupValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attr in item)
    if (typeof item[attr] === 'string' && attr !== 'pk' && attr !== 'sk' && attr !== PACKED && attr !== COLUMNS)
      out[attr] = item[attr] as string;
  return out;
}

/** An item's numbers by key and column: its columns' text parsed in place, then the JSON's and loose ones that fit. */
function rowsOf(item: RollupValues, columns: readonly string[]): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  const add = (key: string, c: number, n: number) => {
    let row = rows.get(key);
    if (!row) {
      row = new Array<number>(columns.length).fill(0);
      rows.set(key, row);
    }
    row[c] += n;
  };
  const named = (name: string, n: number) => {
    const c = columns.findIndex((prefix) => name.startsWith(prefix) && COLUMN_KEY.test(name.slice(prefix.length)));
    if (c >= 0) add(name.slice(columns[c].length), c, n);
  };
  const text = item[COLUMNS];
  if (typeof text === 'string') {
    const bar = text.indexOf('|');
    // The columns the text was written with, as indexes of today's (-1: no longer a column).
    const at = text
      .slice(0, bar)
      .split(',')
      .map((c) => columns.indexOf(c));
    let start = bar + 1;
    while (start < text.length) {
      let end = text.indexOf(' ', start);
      if (end < 0) end = text.length;
      const colon = text.indexOf(':', start);
      const key = text.slice(start, colon);
      for (let v = colon + 1, c = 0; v <= end; c++) {
        let comma = text.indexOf(',', v);
        if (comma < 0 || comma > end) comma = end;
        if (comma > v && at[c] >= 0) add(key, at[c], Number(text.slice(v, comma)));
        v = comma + 1;
      }
      start = end + 1;
    }
  }
  if (typeof item[PACKED] === 'string')
    for (const [name, n] of Object.entries(JSON.parse(item[PACKED] as string) as Record<string, number>))
      named(name, n);
  for (const [name, n] of looseNumbers(item)) named(name, n as number);
  return rows;
}

/** Every item of a kind, for its repair path (a Scan: run it from a job, not a request). */
export async function scanRollups(kind: string): Promise<(RollupKey & { values: RollupValues })[]> {
  const prefix = `${ROLLUP_PREFIX}${kind}#`;
  const found: (RollupKey & { values: RollupValues })[] = [];
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const out = await dynamoClient().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) {
      const { sort, values } = strip(item);
      found.push({ kind, partition: (item.pk as string).slice(prefix.length), sort, values });
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return found;
}

/** Adds of the same item summed into one (a batch of events: still one ADD per item). */
export function mergeRollupAdds(changes: Iterable<RollupAdd>): RollupAdd[] {
  const merged = new Map<string, RollupAdd>();
  for (const change of changes) {
    const id = `${change.kind}\0${change.partition}\0${change.sort}`;
    const into = merged.get(id);
    if (!into) {
      merged.set(id, { ...change, add: { ...change.add }, set: change.set ? { ...change.set } : undefined });
      continue;
    }
    for (const [attr, n] of Object.entries(change.add)) into.add[attr] = (into.add[attr] ?? 0) + n;
    if (change.set) into.set = { ...into.set, ...change.set };
  }
  return [...merged.values()];
}
