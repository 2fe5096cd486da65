import type { PasskeySummary } from '../../shared/schemas/auth.js';
import { passkeyStore, type StoredPasskey } from './passkeyStore.js';

// What the rest of sign-in needs of a user's passkeys (the second step's methods, `GET /me/factors`,
// a super's reset), apart from the ceremonies (passkeys.ts), which call sign-in (signIn.ts): sign-in
// imports this module and the ceremonies import sign-in, with no cycle between them.

export const passkeySummaryOf = (p: StoredPasskey): PasskeySummary => ({
  id: p.id,
  name: p.name,
  created_at: p.created_at,
  last_used_at: p.last_used_at ?? null,
});

/** How many passkeys the user has (the sign-in's methods, the policy's "has a factor"). */
export async function passkeyCount(userId: number): Promise<number> {
  return (await passkeyStore().list(userId)).length;
}

/** The user's passkeys as `GET /me/factors` lists them, oldest first. */
export async function passkeySummaries(userId: number): Promise<PasskeySummary[]> {
  return (await passkeyStore().list(userId)).map(passkeySummaryOf);
}

/** Removes every passkey of the user (a super's reset of the factors); how many there were. */
export async function removeAllPasskeys(userId: number): Promise<number> {
  const store = passkeyStore();
  const all = await store.list(userId);
  const removed = await Promise.all(all.map((p) => store.remove(userId, p.id)));
  return removed.filter(Boolean).length;
}
