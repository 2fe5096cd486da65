// The one place a failed condition is recognised, whichever layer raised it: the vendor's
// ConditionalCheckFailedException (a raw call in lib/db) or ConditionFailedError (a repository's
// or a keyed record's conditional write). Features see only their own errors or a boolean.

import { ConditionFailedError } from './entity.js';

export function isConditionFailure(error: unknown): boolean {
  return (
    error instanceof ConditionFailedError ||
    (error instanceof Error && error.name === 'ConditionalCheckFailedException')
  );
}

/**
 * A write whose failed condition means something in the caller's own terms (the row is gone or
 * soft-deleted: its NotFoundError). Other failures pass through.
 */
export async function onConditionFailure<R>(write: Promise<R>, replace: (cause: unknown) => Error): Promise<R> {
  try {
    return await write;
  } catch (error) {
    throw isConditionFailure(error) ? replace(error) : error;
  }
}

/** Whether a conditional write's condition held: false when it did not, other failures thrown. */
export async function held(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A conditional write's answer, or undefined when its condition did not hold (other failures thrown). */
export async function ifHeld<R>(write: Promise<R>): Promise<R | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
