import type { UserRef } from '../../shared/schemas/common.js';
import { userStore } from './store.js';

/**
 * `{nickname}` for each user id of a page of rows, read in one batch. Ids that are null or
 * gone map to nothing, and the web shows SYSTEM for them.
 */
export async function userRefs(ids: (number | null | undefined)[]): Promise<Map<number | null | undefined, UserRef>> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number' && i > 0))];
  const rows = wanted.length ? await userStore().getMany(wanted) : [];
  return new Map(rows.map((u) => [u.id, { nickname: u.nickname }]));
}
