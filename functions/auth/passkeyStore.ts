import { held } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';

// Passkeys (WebAuthn credentials) and the challenges handed out for them.
//
// A user's passkeys are one partition (`passkey#{userId}`, one record per credential id), so a
// user's list, count or removal is one Query, and a sign-in finds the credential from the user
// handle the authenticator returns (the user's id) without any index. A public key is no secret:
// it is stored as is. Challenges are records of their own, keyed by the challenge itself, taken
// (deleted and read in one call) by the answer that quotes them: each one verifies at most once.

export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

export interface StoredPasskey {
  user_id: number;
  /** The credential id, base64url, as the browser names it. */
  id: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at its last use (0: it keeps none). */
  counter: number;
  transports: string[];
  device_type: PasskeyDeviceType;
  backed_up: boolean;
  created_at: number;
  last_used_at: number | null;
}

/** Why a challenge was handed out: each answer route takes only its own kind. */
export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor';

export interface StoredChallenge {
  purpose: ChallengePurpose;
  /** The user it was made for: the signed-in user registering, or the ticket's user; 0 for a sign-in with no user yet. */
  user_id: number;
  valid_until: number;
}

export interface PasskeyStore {
  list(userId: number): Promise<StoredPasskey[]>;
  get(userId: number, credentialId: string): Promise<StoredPasskey | undefined>;
  /** False when the user has this credential already. */
  add(passkey: StoredPasskey): Promise<boolean>;
  /**
   * Records a use: the new counter and the time, in one write that holds only while the passkey
   * still exists and its stored counter is below the new one (or both are 0: an authenticator that
   * keeps no counter). False when it does not hold: removed meanwhile, or a cloned authenticator.
   */
  recordUse(userId: number, credentialId: string, counter: number, at: number): Promise<boolean>;
  rename(userId: number, credentialId: string, name: string): Promise<boolean>;
  /** The removed passkey, or undefined when there was none. */
  remove(userId: number, credentialId: string): Promise<StoredPasskey | undefined>;
  putChallenge(challenge: string, data: StoredChallenge): Promise<void>;
  /** The challenge's record, deleted by this very read; undefined when unknown or taken before. */
  takeChallenge(challenge: string): Promise<StoredChallenge | undefined>;
}

/** Challenges outlive their validity by this much in the table, then TTL drops them. */
const CHALLENGE_TTL_SECONDS = 10 * 60;

export function dynamoPasskeyStore(): PasskeyStore {
  const passkeys = keyedRecords<StoredPasskey>('passkey', { compound: true });
  const challenges = keyedRecords<StoredChallenge>('passkey_challenge', { ttlSeconds: CHALLENGE_TTL_SECONDS });
  const idOf = (userId: number, credentialId: string) => `${userId}/${credentialId}`;
  return {
    async list(userId) {
      const { records } = await passkeys.allIn(String(userId));
      return [...records.values()].sort((a, b) => a.created_at - b.created_at);
    },
    get: (userId, credentialId) => passkeys.get(idOf(userId, credentialId), { consistent: true }),
    add: (passkey) => passkeys.put(idOf(passkey.user_id, passkey.id), passkey, { ifAbsent: true }),
    recordUse(userId, credentialId, counter, at) {
      return held(
        passkeys.update(
          idOf(userId, credentialId),
          { set: { counter, last_used_at: at } },
          { when: when.and(when.exists(), when.is('counter', counter > 0 ? '<' : '=', counter)) },
        ),
      );
    },
    rename(userId, credentialId, name) {
      return held(passkeys.update(idOf(userId, credentialId), { set: { name } }, { when: when.exists() }));
    },
    remove: (userId, credentialId) => passkeys.remove(idOf(userId, credentialId), { returnOld: true }),
    async putChallenge(challenge, data) {
      await challenges.put(challenge, data);
    },
    async takeChallenge(challenge) {
      const item = await challenges.remove(challenge, { returnOld: true });
      return item
        ? { purpose: item.purpose, user_id: Number(item.user_id), valid_until: Number(item.valid_until) }
        : undefined;
    },
  };
}

let store: PasskeyStore | undefined;
export const passkeyStore = (): PasskeyStore => {
  store ??= dynamoPasskeyStore();
  return store;
};
