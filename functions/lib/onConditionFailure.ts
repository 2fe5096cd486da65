import { ConditionFailedError } from './db/entity.js';

/**
 * A store adapter's write whose failed condition means something in the feature's own terms
 * (the row is gone or soft-deleted: its NotFoundError). Other failures pass through.
 */
export async function onConditionFailure<R>(write: Promise<R>, replace: () => Error): Promise<R> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionFailedError) throw replace();
    throw error;
  }
}
