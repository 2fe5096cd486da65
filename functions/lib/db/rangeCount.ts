// The count of a created_at range (a key condition), exact up to the read budget, at O(page) cost
// once counted:
// - a spread base (partitions.ts) counts the buckets the range holds whole from their kept
//   counters, on every call (the current bucket too: "today" is a counter read), and reads rows
//   only in the (at most two) buckets the range cuts;
// - the rows it had to read are counted once: their count up to a settled instant
//   (now - SETTLE_MS) is kept for CURSOR_TTL_MS next to the list cursors (`cursor#type` /
//   `${hash}#count`), and later calls of the same range (the next page, the table's 5 s refresh)
//   count only the rows written since, moving the memo forward.
// A row soft-deleted or expired inside the range while a memo lives is still counted until the
// memo expires (10 minutes); a row written with a created_at older than the settled instant after
// it passed is missed for as long. Only exact counts are kept: past the budget every call counts again.

import {
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { CURSOR_PREFIX, CURSOR_TTL_MS, cursorHash } from './cursors.js';
import { bucketSpan, type Partitioning, physical } from './partitions.js';
import { TTL_ATTRIBUTE } from './tableSchema.js';
import { timeKeyBounds } from './timeKey.js';

/** Rows older than this are taken as written for good (GSI propagation, clocks of writers). */
export const SETTLE_MS = 10_000;
const MAX_LIMIT = 2000;

export interface RangePlan {
  index: string;
  partition: string;
  spread?: Required<Partitioning>;
  pkName: string;
  pkValue: string;
  skName: string;
  range?: { start?: number; end?: number };
}

export interface Count {
  count: number;
  rcu: number;
  /** Set when the budget ran out: rows read, and the count is a lower bound. */
  searched?: number;
}

/** The planned Query with its sort-key condition replaced by [start, end]. */
function rangedInput(input: QueryCommandInput, plan: RangePlan, start?: number, end?: number): QueryCommandInput {
  const { low, high } = timeKeyBounds(start, end);
  const parts = [`${plan.pkName} = ${plan.pkValue}`];
  const values: Record<string, NativeAttributeValue> = { ...input.ExpressionAttributeValues };
  for (const k of [':rlo', ':rhi']) delete values[k];
  if (low !== undefined) values[':rlo'] = low;
  if (high !== undefined) values[':rhi'] = high;
  if (low !== undefined && high !== undefined) parts.push(`${plan.skName} BETWEEN :rlo AND :rhi`);
  else if (low !== undefined) parts.push(`${plan.skName} >= :rlo`);
  else if (high !== undefined) parts.push(`${plan.skName} <= :rhi`);
  // Values the old key condition used and the new one does not are refused by DynamoDB: keep the used ones.
  const expression = `${parts.join(' AND ')}${input.FilterExpression ? ` ${input.FilterExpression}` : ''}`;
  const used = Object.fromEntries(Object.entries(values).filter(([k]) => new RegExp(`${k}(?![0-9])`).test(expression)));
  return { ...input, KeyConditionExpression: parts.join(' AND '), ExpressionAttributeValues: used };
}

/** Rows of a key condition, counted within `budget` rows read. */
export async function countRows(input: QueryCommandInput, budget: number): Promise<Count> {
  let count = 0;
  let rcu = 0;
  let scanned = 0;
  let start: QueryCommandInput['ExclusiveStartKey'];
  do {
    const out = await dynamoClient().send(
      new QueryCommand({
        ...input,
        Select: 'COUNT',
        ExclusiveStartKey: start,
        Limit: Math.min(budget - scanned, MAX_LIMIT),
      }),
    );
    count += out.Count ?? 0;
    scanned += out.ScannedCount ?? 0;
    rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
    start = out.LastEvaluatedKey;
  } while (start && scanned < budget);
  return { count, rcu, searched: start ? scanned : undefined };
}

/** Whether a bucket ("": the whole partition) meets [start, end], and whether it lies inside it. */
const bucketWithin = (bucket: string, start?: number, end?: number) => {
  const span = bucket ? bucketSpan(bucket) : { start: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  return {
    touched: !((start !== undefined && span.end < start) || (end !== undefined && span.start > end)),
    inside: (start === undefined || span.start >= start) && (end === undefined || span.end <= end),
  };
};

/**
 * Rows in [start, end], read within the budget: of one partition (`cut` undefined), or of the
 * buckets of a spread base the whole range cuts (splitBuckets) that meet this part of it. A cut
 * bucket never lies inside a part of the range that cuts it, so every one is read.
 */
async function countSpan(
  input: QueryCommandInput,
  plan: RangePlan,
  cut: string[] | undefined,
  budget: number,
  start?: number,
  end?: number,
): Promise<Count> {
  if (start !== undefined && end !== undefined && start > end) return { count: 0, rcu: 0 };
  const spread = plan.spread;
  if (!spread || !cut) return countRows(rangedInput(input, plan, start, end), budget);
  let count = 0;
  let rcu = 0;
  let scanned = 0;
  const ranged = rangedInput(input, plan, start, end);
  for (const bucket of cut.filter((b) => bucketWithin(b, start, end).touched).sort()) {
    for (let shard = 0; shard < spread.shards; shard++) {
      if (scanned >= budget) return { count, rcu, searched: scanned };
      const partition = physical(plan.partition, bucket || undefined, spread.shards > 1 ? shard : undefined);
      const out = await countRows(
        { ...ranged, ExpressionAttributeValues: { ...ranged.ExpressionAttributeValues, [plan.pkValue]: partition } },
        budget - scanned,
      );
      count += out.count;
      rcu += out.rcu;
      scanned += out.searched ?? out.count;
      if (out.searched !== undefined) return { count, rcu, searched: scanned };
    }
  }
  return { count, rcu };
}

/**
 * The rows of the buckets [start, end] holds whole (their counters), and the buckets it cuts.
 * One partition (no counters): nothing whole, and `cut` stays undefined (countSpan reads its rows).
 */
function splitBuckets(
  counted: Map<string, number[]> | undefined,
  start?: number,
  end?: number,
): { whole: number; cut?: string[] } {
  if (!counted) return { whole: 0 };
  let whole = 0;
  const cut: string[] = [];
  for (const [bucket, shards] of counted) {
    const { touched, inside } = bucketWithin(bucket, start, end);
    if (inside) whole += shards.reduce((a, n) => a + n, 0);
    else if (touched) cut.push(bucket);
  }
  return { whole, cut };
}

interface Memo {
  n: number;
  /** Rows with created_at <= through are in n. */
  through: number;
  /** When the range was first counted: the memo lives CURSOR_TTL_MS from then. */
  since: number;
}

/**
 * The count of the plan's created_at range. `counted`: the spread base's bucket counters (read
 * by the caller for its page), undefined for one partition.
 */
export async function rangeCount(
  type: string,
  input: QueryCommandInput,
  plan: RangePlan,
  counted: Map<string, number[]> | undefined,
  budget: number,
): Promise<Count> {
  const { start, end } = plan.range ?? {};
  const { whole, cut } = splitBuckets(counted, start, end);
  // Whole buckets only: their counters are the count, with nothing to read or keep.
  if (cut?.length === 0) return { count: whole, rcu: 0 };
  const key = {
    pk: `${CURSOR_PREFIX}${type}`,
    // 'cut': the memo holds the cut buckets' rows only (an older memo also held whole buckets).
    sk: `${cursorHash([plan.index, plan.partition, start ?? null, end ?? null, 'cut'])}#count`,
  };
  const now = Date.now();
  const memoOut = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: key, ReturnConsumedCapacity: 'TOTAL' }),
  );
  let rcu = memoOut.ConsumedCapacity?.CapacityUnits ?? 0.5;
  const memo = memoOut.Item as Memo | undefined;
  const fresh = memo && memo.since > now - CURSOR_TTL_MS;
  const settled = Math.min(end ?? Number.POSITIVE_INFINITY, now - SETTLE_MS);
  const from = fresh ? Math.max(memo.through + 1, start ?? Number.NEGATIVE_INFINITY) : start;
  // Settled rows not in the memo yet, then rows too recent to keep: each counted separately.
  const [older, recent] = await Promise.all([
    from === undefined || from <= settled
      ? countSpan(input, plan, cut, budget, from, settled)
      : Promise.resolve<Count>({ count: 0, rcu: 0 }),
    end === undefined || end > settled
      ? countSpan(input, plan, cut, budget, Math.max(settled + 1, start ?? settled + 1), end)
      : Promise.resolve<Count>({ count: 0, rcu: 0 }),
  ]);
  rcu += older.rcu + recent.rcu;
  const base = fresh ? memo.n : 0;
  const count = whole + base + older.count + recent.count;
  const searched = older.searched ?? recent.searched;
  if (older.searched === undefined && (!fresh || older.count > 0 || settled > memo.through)) {
    const next: Memo = { n: base + older.count, through: settled, since: fresh ? memo.since : now };
    await dynamoClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...key, ...next, at: next.since, [TTL_ATTRIBUTE]: Math.ceil((next.since + CURSOR_TTL_MS) / 1000) },
      }),
    );
  }
  return { count, rcu, searched };
}
