// One lease and claim protocol for every feature, modelled on Powertools idempotency's persistence
// layer (BasePersistenceLayer / DynamoDBPersistenceLayer): a record per key that is in progress
// (held by a token until an instant), completed, or expired, taken with one conditional write and
// taken over once its holder's time has passed. Serves the bank poll lease (with the poll's state
// on the same record), the dispatch window, the inbound webhook's lease, the rule-slot claim and
// the webhook delivery claim.
//
//   take      absent, free, expired in progress, or completed past its keep  -> in progress (holder, until)
//   release   holder only -> free again (reusable leases), with the record's data changed in the same write
//   complete  holder only -> completed (kept until `keepUntil`, or for good)
//   abandon   holder only -> deleted: as if never taken (a claim whose work left no trace)
//
// A lease is `reusable` (poll, dispatch window: released, then taken again) or a claim taken once
// (rule slot, delivery: completed for good). A record of a claim kind without a status was written
// before this module (a bare claim item) and counts as completed.

import { DeleteCommand, type NativeAttributeValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import {
  changeExpression,
  type KeyedRecords,
  keyedRecords,
  type RecordChange,
  type RecordId,
  type RecordLayout,
  recordData,
} from './keyedRecords.js';
import { ExpressionBuilder } from './expr.js';
import { isConditionFailure } from './conditionFailure.js';
import { TTL_ATTRIBUTE } from './tableSchema.js';

export const LeaseStatus = {
  InProgress: 'in_progress',
  Completed: 'completed',
  Expired: 'expired',
  Free: 'free',
} as const;
export type LeaseStatus = (typeof LeaseStatus)[keyof typeof LeaseStatus];

/** The attributes the protocol keeps on a record, beside the feature's own data. */
const A = { status: 'lease_status', holder: 'lease_holder', until: 'lease_until', keep: 'lease_keep' } as const;
const LEASE_ATTRS = new Set<string>(Object.values(A));

export interface LeaseRecord<D> {
  status: LeaseStatus;
  /** The token of whoever holds it (in progress) or completed it. */
  holder?: string;
  /** In progress: when the holder's time ends (ms). */
  until?: number;
  /** Completed: until when it blocks new takes (ms); absent: for good. */
  keepUntil?: number;
  /** The feature's attributes on the record. */
  data: D;
}

export type LeaseTake<D> =
  | { taken: true /** The previous holder's time had run out. */; takenOver: boolean; record: LeaseRecord<D> }
  | {
      taken: false /** Who has it (absent only when it vanished between the write and the read). */;
      record?: LeaseRecord<D>;
    };

export interface TakeOptions {
  holder: string;
  now: number;
  /** How long the holder has (ms): after now + ms the lease may be taken over. */
  ms: number;
  /** The same holder may take it again while in progress (a redelivered message of the same work). */
  reentrant?: boolean;
}

export interface LeaseKind<D extends object> {
  readonly kind: string;
  take(id: RecordId, options: TakeOptions): Promise<LeaseTake<D>>;
  /** Frees a reusable lease, writing `change` with it; false when `holder` no longer holds it. */
  release(id: RecordId, holder: string, change?: RecordChange): Promise<boolean>;
  /** Completes it: no take succeeds until `keepUntil` (for good without). False when not held by `holder`. */
  complete(id: RecordId, holder: string, options?: { keepUntil?: number; change?: RecordChange }): Promise<boolean>;
  /** Deletes it if `holder` holds it: the work left no trace and may run again. */
  abandon(id: RecordId, holder: string): Promise<boolean>;
  read(id: RecordId, options?: { consistent?: boolean; now?: number }): Promise<LeaseRecord<D> | undefined>;
  readMany(ids: RecordId[], options?: { now?: number }): Promise<Map<string, LeaseRecord<D>>>;
  /** Every record of a grouped kind (one Query per group). */
  all(options?: { now?: number }): Promise<{ records: Map<string, LeaseRecord<D>>; rcu: number }>;
  /** Changes the data alone, whoever holds it (counters other writers add to). */
  touch(id: RecordId, change: RecordChange): Promise<void>;
}

export interface LeaseKindOptions extends RecordLayout {
  /** Released and taken again (poll, window), rather than completed once (claims). */
  reusable: boolean;
}

/** The status of a stored record at `now`. */
export function leaseStatusOf(item: Record<string, unknown>, reusable: boolean, now: number): LeaseStatus {
  const status = item[A.status];
  if (status === LeaseStatus.InProgress)
    return Number(item[A.until] ?? 0) <= now ? LeaseStatus.Expired : LeaseStatus.InProgress;
  if (status === LeaseStatus.Completed) {
    const keep = item[A.keep];
    return typeof keep === 'number' && keep <= now ? LeaseStatus.Expired : LeaseStatus.Completed;
  }
  // No status: released (a reusable lease), or a bare claim item from before this protocol.
  return reusable ? LeaseStatus.Free : LeaseStatus.Completed;
}

export function leaseKind<D extends object>(kind: string, options: LeaseKindOptions): LeaseKind<D> {
  const records: KeyedRecords<Record<string, NativeAttributeValue>> = keyedRecords(kind, options);
  /** With `ttlSeconds`, a take and a completion push the record's end (`expires_at`) that far out. */
  const expiry = (now: number) =>
    options.ttlSeconds ? { [TTL_ATTRIBUTE]: Math.floor(now / 1000) + options.ttlSeconds } : {};
  const toRecord = (
    item: Record<string, NativeAttributeValue> | undefined,
    now: number,
  ): LeaseRecord<D> | undefined => {
    const all = recordData<Record<string, NativeAttributeValue>>(item);
    if (!all) return undefined;
    const record = {
      status: leaseStatusOf(all, options.reusable, now),
      holder: all[A.holder] as string | undefined,
      until: all[A.until] as number | undefined,
      keepUntil: all[A.keep] as number | undefined,
    };
    // The rest is the feature's data: the item itself, the protocol's attributes taken out (no copy).
    for (const k of LEASE_ATTRS) if (k in all) delete all[k];
    return { ...record, data: all as D };
  };

  /** A write only the holder may make (its token still on the record, in progress). */
  async function asHolder(id: RecordId, holder: string, expression: string, b: ExpressionBuilder): Promise<boolean> {
    try {
      await dynamoClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: records.keyOf(id),
          UpdateExpression: expression,
          ConditionExpression: `${b.name(A.holder)} = ${b.value(holder)} AND ${b.name(A.status)} = ${b.value(LeaseStatus.InProgress)}`,
          ...b.attributes(),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  return {
    kind,
    async take(id, { holder, now, ms, reentrant }) {
      const b = new ExpressionBuilder();
      const status = b.name(A.status);
      const until = b.name(A.until);
      const keep = b.name(A.keep);
      const inProgress = b.value(LeaseStatus.InProgress);
      const at = b.value(now);
      // The conditions under which a take wins, as in Powertools' _putRecord:
      const absent = 'attribute_not_exists(pk)';
      const inProgressExpired = `(${status} = ${inProgress} AND ${until} <= ${at})`;
      const completedExpired = `(${status} = ${b.value(LeaseStatus.Completed)} AND ${keep} <= ${at})`;
      const clauses = [absent, inProgressExpired, completedExpired];
      // A released reusable lease is free (no status); a claim without a status is an old completed one.
      if (options.reusable) clauses.push(`attribute_not_exists(${status})`);
      if (reentrant) clauses.push(`(${status} = ${inProgress} AND ${b.name(A.holder)} = ${b.value(holder)})`);
      const condition = clauses.join(' OR ');
      const expression = changeExpression(b, {
        set: { [A.status]: LeaseStatus.InProgress, [A.holder]: holder, [A.until]: now + ms, ...expiry(now) },
        remove: [A.keep],
      });
      try {
        const out = await dynamoClient().send(
          new UpdateCommand({
            TableName: config.tableName,
            Key: records.keyOf(id),
            UpdateExpression: expression,
            ConditionExpression: condition,
            // The record as it was: the feature's data comes back with the take, no read needed.
            ReturnValues: 'ALL_OLD',
            ...b.attributes(),
          }),
        );
        const before = toRecord(out.Attributes, now);
        const record: LeaseRecord<D> = {
          status: LeaseStatus.InProgress,
          holder,
          until: now + ms,
          data: (before?.data ?? {}) as D,
        };
        const takenOver =
          before?.status === LeaseStatus.Expired && before.holder !== undefined && before.holder !== holder;
        return { taken: true, takenOver, record };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Who holds it: one read, only when the take lost (dynalite does not send the item with
        // the refusal, so this is not ReturnValuesOnConditionCheckFailure).
        return { taken: false, record: toRecord(await records.get(id, { consistent: true }), now) };
      }
    },
    release(id, holder, change = {}) {
      const b = new ExpressionBuilder();
      const expression = changeExpression(b, {
        ...change,
        remove: [...(change.remove ?? []), A.status, A.holder, A.until, A.keep],
      });
      return asHolder(id, holder, expression, b);
    },
    complete(id, holder, { keepUntil, change = {} } = {}) {
      const b = new ExpressionBuilder();
      const expression = changeExpression(b, {
        ...change,
        set: {
          ...change.set,
          [A.status]: LeaseStatus.Completed,
          ...(keepUntil !== undefined ? { [A.keep]: keepUntil } : {}),
        },
        remove: [...(change.remove ?? []), A.until, ...(keepUntil === undefined ? [A.keep] : [])],
      });
      return asHolder(id, holder, expression, b);
    },
    async abandon(id, holder) {
      try {
        await dynamoClient().send(
          new DeleteCommand({
            TableName: config.tableName,
            Key: records.keyOf(id),
            ConditionExpression: '#h = :h AND #s = :s',
            ExpressionAttributeNames: { '#h': A.holder, '#s': A.status },
            ExpressionAttributeValues: { ':h': holder, ':s': LeaseStatus.InProgress },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async read(id, { consistent = true, now = Date.now() } = {}) {
      return toRecord(await records.get(id, { consistent }), now);
    },
    async readMany(ids, { now = Date.now() } = {}) {
      const found = await records.getMany(ids);
      return new Map([...found].map(([k, item]) => [k, toRecord(item, now) as LeaseRecord<D>]));
    },
    async all({ now = Date.now() } = {}) {
      const { records: found, rcu } = await records.all();
      return { records: new Map([...found].map(([k, item]) => [k, toRecord(item, now) as LeaseRecord<D>])), rcu };
    },
    async touch(id, change) {
      await records.update(id, change);
    },
  };
}
