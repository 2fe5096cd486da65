// Unique values (site name, username...) as claim items `unique#type#field#value`: one conditional
// PutItem decides the race, so of any number of parallel claims exactly one wins. The claim also
// serves as a lookup (findUniqueOwner: username -> user id) without a scan.
//
// Values compare trimmed and case-insensitively: 'Site A' and ' site a' are the same name to a user.

import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import type { FollowUp } from './entity.js';
import { followUpsOfNewRow, type OutboxWrite } from './outbox.js';
import { isConditionFailure, onConditionFailure } from './conditionFailure.js';
import { OUTBOX_PREFIX } from './tableSchema.js';

export class UniqueTakenError extends Error {
  override name = 'UniqueTakenError';
  constructor(
    readonly type: string,
    readonly field: string,
    readonly value: string,
    options?: { cause?: unknown },
  ) {
    super(`${type} ${field} '${value}' is taken`, options);
  }
}

export function uniqueKey(type: string, field: string, value: string): { pk: string; sk: string } {
  return { pk: `unique#${type}#${field}#${value.trim().toLowerCase()}`, sk: 'unique' };
}

/**
 * Claims `value` for `ownerId`. Claiming again for the same owner succeeds (safe to retry);
 * another owner's claim throws UniqueTakenError. `also`: more ids the claim names (what the owner's
 * writes after it will be, so a later writer finding the claim can finish them).
 */
export async function claimUnique(
  type: string,
  field: string,
  value: string,
  ownerId: number,
  also: Record<string, number> = {},
  followUps: FollowUp[] = [],
): Promise<OutboxWrite | undefined> {
  // Follow-ups of the claim (lib/db/outbox.ts) are recorded in its PutItem: either both or neither.
  const outbox = followUps.length ? followUpsOfNewRow(followUps) : undefined;
  await onConditionFailure(
    dynamoClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          ...also,
          ...outbox?.attributes,
          ...uniqueKey(type, field, value),
          owner: ownerId,
          value,
          claimed_at: Date.now(),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR #owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': ownerId },
      }),
    ),
    (cause) => new UniqueTakenError(type, field, value, { cause }),
  );
  return outbox?.write;
}

/** claimUnique for a caller to whom a taken value is an answer, not an error: false when another owner holds it. */
export async function claimIfFree(
  type: string,
  field: string,
  value: string,
  ownerId: number,
  also: Record<string, number> = {},
): Promise<boolean> {
  return (await claimWithFollowUps(type, field, value, ownerId, also, [])) !== false;
}

/**
 * claimIfFree that records `followUps` on the claim in the same write (lib/db/outbox.ts): false
 * when another owner holds it, else what was recorded (undefined for no follow-ups), for the
 * claimer to clear once it has done them (`clearRecorded`); left pending, the sweeper applies them.
 */
export async function claimWithFollowUps(
  type: string,
  field: string,
  value: string,
  ownerId: number,
  also: Record<string, number>,
  followUps: FollowUp[],
): Promise<false | { recorded?: OutboxWrite }> {
  try {
    const recorded = await claimUnique(type, field, value, ownerId, also, followUps);
    return recorded ? { recorded } : {};
  } catch (error) {
    if (error instanceof UniqueTakenError) return false;
    throw error;
  }
}

/**
 * Claims `value` only if nobody has, the same owner included: true for the one write that made the
 * claim, false for every later one. For marks that must take effect once (an event recorded once).
 */
export async function claimOnce(
  type: string,
  field: string,
  value: string,
  ownerId: number,
  also: Record<string, number> = {},
): Promise<boolean> {
  try {
    await dynamoClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...also, ...uniqueKey(type, field, value), owner: ownerId, value, claimed_at: Date.now() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Frees `value` if `ownerId` holds it; false when it was free or someone else's. */
export async function releaseUnique(type: string, field: string, value: string, ownerId: number): Promise<boolean> {
  try {
    await dynamoClient().send(
      new DeleteCommand({
        TableName: config.tableName,
        Key: uniqueKey(type, field, value),
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': ownerId },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** The id holding `value`, if any. */
export async function findUniqueOwner(type: string, field: string, value: string): Promise<number | undefined> {
  return (await findUniqueClaim(type, field, value))?.owner;
}

/**
 * The claim of `value`, if any: who holds it, since when (ms, for claims that expire: one-time
 * codes), and the other ids it names (`also` of claimUnique: what the owner's writes after it are).
 */
export async function findUniqueClaim(
  type: string,
  field: string,
  value: string,
): Promise<{ owner: number; claimed_at: number; also: Record<string, number>; followUpsPending: boolean } | undefined> {
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: uniqueKey(type, field, value), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, owner, value: _value, claimed_at, ...rest } = out.Item;
  const also = Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith(OUTBOX_PREFIX)));
  const followUpsPending = Object.keys(rest).some((k) => k.startsWith(`${OUTBOX_PREFIX}e_`));
  return {
    owner: owner as number,
    claimed_at: Number(claimed_at),
    also: also as Record<string, number>,
    followUpsPending,
  };
}
