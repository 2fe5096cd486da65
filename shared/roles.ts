import type { UserRoleValue } from './schemas/auth.js';

// What each role may do, as one order: a route declares the lowest role it admits (the API's
// access step checks it), and the web shows a control only to a role the route admits.

const RANK: Record<UserRoleValue, number> = { viewer: 0, operator: 1, super: 2 };

/** Whether `role` is `lowest` or above it; a missing or unknown role is below every role. */
export function roleAtLeast(role: string | null | undefined, lowest: UserRoleValue): boolean {
  const rank = role === undefined || role === null ? undefined : RANK[role as UserRoleValue];
  return rank !== undefined && rank >= RANK[lowest];
}

/** What a refused viewer reads (403): the whole reason and what to do about it. */
export const READ_ONLY_MESSAGE =
  'Your role is Viewer: you can read, but not change anything or reveal secrets. Ask a super user for the Operator role.';
