// Kept rollups: items a feature adds numbers to with one `ADD` per item per event, so a dashboard
// reads a few small items instead of the rows they summarise (docs/data-model.md "Rollups").
//
// An item is `pk = rollup#${kind}#${partition}`, `sk = ${sort}`; its numbers are top-level
// attributes (ADD works only on those), named by the feature (a duration sketch's buckets,
// `runs`, `r12` for site 12...). A Query of one partition reads every item of it, in sort order,
// so a feature lays items out by what one screen reads together. Rollup items sit in no index and
// have no counters: the lists never see them. The feature's repair path rebuilds them whole
// (`putRollup`, `deleteRollup`, `scanRollups`) from the rows it keeps.

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
import { conditional } from './repository.js';

export const ROLLUP_PREFIX = 'rollup#';

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

/**
 * One `ADD` (and `SET`) on one item, creating it when missing. With `expect` the write happens only
 * while the item holds those values: ConditionFailedError otherwise.
 */
export async function addToRollup(change: RollupAdd, options: { expect?: RollupValues } = {}): Promise<void> {
  const adds = Object.entries(change.add).filter(([, n]) => n !== 0);
  const sets = Object.entries(change.set ?? {});
  if (!adds.length && !sets.length) return;
  const names: Record<string, string> = {};
  const values: RollupValues = {};
  const clauses: string[] = [];
  if (adds.length) {
    clauses.push(
      `ADD ${adds
        .map(([attr, n], i) => {
          names[`#a${i}`] = attr;
          values[`:a${i}`] = n;
          return `#a${i} :a${i}`;
        })
        .join(', ')}`,
    );
  }
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
  const expectAll = condition(options.expect, names, values);
  await conditional(
    dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keyOf(change),
        UpdateExpression: clauses.join(' '),
        ConditionExpression: expectAll,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
    failed,
  );
}

/** Writes an item whole (a rebuild); with `expect`, only while it holds those values. */
export async function putRollup(
  key: RollupKey,
  itemValues: RollupValues,
  options: { expect?: RollupValues } = {},
): Promise<void> {
  const names: Record<string, string> = {};
  const values: RollupValues = {};
  const expectAll = condition(options.expect, names, values);
  await conditional(
    dynamoClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...itemValues, ...keyOf(key) },
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

const strip = (item: RollupValues): RollupItem => {
  const { pk: _pk, sk, ...values } = item;
  return { sort: sk as string, values };
};

/** One item, read consistently (a writer deciding from it). */
export async function getRollup(key: RollupKey): Promise<RollupValues | undefined> {
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: keyOf(key), ConsistentRead: true }),
  );
  return out.Item ? strip(out.Item).values : undefined;
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
  const { pk } = keyOf({ kind, partition, sort: '' });
  const keyCondition = ['pk = :pk'];
  const values: RollupValues = { ':pk': pk };
  if (range.from !== undefined && range.to !== undefined) keyCondition.push('sk BETWEEN :from AND :to');
  else if (range.from !== undefined) keyCondition.push('sk >= :from');
  else if (range.to !== undefined) keyCondition.push('sk <= :to');
  if (range.from !== undefined) values[':from'] = range.from;
  if (range.to !== undefined) values[':to'] = range.to;
  const items: RollupItem[] = [];
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
    for (const item of out.Items ?? []) items.push(strip(item));
    start = out.LastEvaluatedKey;
  } while (start);
  return { items, rcu };
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
