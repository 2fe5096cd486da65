import { createHash } from 'node:crypto';
import { type KeyedRecords, keyedRecords } from '../lib/db/keyedRecords.js';

// What single sign-on keeps: the client secret (one record, encrypted), the sign-ins on their way
// through the provider (by state), and the one-time codes the callback hands the login page. The
// last two are short-lived and single-use: taking one deletes it in the same call (a DeleteItem that
// returns what it deleted), so two requests with the same state or code cannot both succeed.
// They are stored under a hash of the value: a reader of the table learns nothing it could replay.

/** The client secret as stored: `encryptSecret(secret, CLIENT_SECRET_CONTEXT)` and its mask. */
export interface StoredClientSecret {
  secret_enc: string;
  hint: string;
  updated_at: number;
  updated_by: { id: number; nickname: string };
}

/** A sign-in sent to the provider, found again by its `state` at the callback. */
export interface PendingSignIn {
  /** PKCE: the verifier whose challenge went to the provider. */
  code_verifier: string;
  nonce: string;
  /** Hash of the cookie set on the browser that started it: the callback must come from that browser. */
  browser_hash: string;
  /** The issuer and client it was started with: a config change meanwhile ends it. */
  issuer: string;
  client_id: string;
  valid_until: number;
}

/** What a one-time code redeems: the user the provider named, and whether its MFA counts. */
export interface SignInCode {
  user_id: number;
  second_factor_done: boolean;
  /** The sign-in's browser (its cookie's hash): a code sent to another browser signs nobody in there. */
  browser_hash: string;
  valid_until: number;
}

/** Where the encrypted client secret is bound (secrets envelope): this record, this field. */
export const CLIENT_SECRET_CONTEXT = { entity: 'sso', id: 1, field: 'client_secret' } as const;

export const PENDING_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 2 * 60_000;

export const hashOf = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** Where single sign-on's records live; the service depends on this port, not on DynamoDB. */
export interface SsoStore {
  clientSecret(): Promise<StoredClientSecret | undefined>;
  setClientSecret(secret: StoredClientSecret | undefined): Promise<void>;
  putPending(state: string, pending: PendingSignIn): Promise<void>;
  /** The pending sign-in of `state`, removed; undefined when unknown, used or expired. */
  takePending(state: string, now: number): Promise<PendingSignIn | undefined>;
  putCode(code: string, data: SignInCode): Promise<void>;
  /** The code's sign-in, removed; undefined when unknown, used or expired. */
  takeCode(code: string, now: number): Promise<SignInCode | undefined>;
}

async function take<T extends { valid_until: number }>(
  records: KeyedRecords<T>,
  id: string,
  now: number,
): Promise<T | undefined> {
  const item = await records.remove(id, { returnOld: true });
  // The table's TTL drops expired records late (hours): the time is checked here.
  return item && Number(item.valid_until) >= now ? item : undefined;
}

export function dynamoSsoStore(): SsoStore {
  const secrets = keyedRecords<StoredClientSecret>('sso_client_secret');
  const pending = keyedRecords<PendingSignIn>('sso_pending', { ttlSeconds: PENDING_TTL_MS / 1000 });
  const codes = keyedRecords<SignInCode>('sso_code', { ttlSeconds: CODE_TTL_MS / 1000 });
  return {
    clientSecret: () => secrets.get('', { consistent: true }),
    async setClientSecret(secret) {
      if (secret) await secrets.put('', secret);
      else await secrets.remove('');
    },
    async putPending(state, data) {
      await pending.put(hashOf(state), data);
    },
    takePending: (state, now) => take(pending, hashOf(state), now),
    async putCode(code, data) {
      await codes.put(hashOf(code), data);
    },
    takeCode: (code, now) => take(codes, hashOf(code), now),
  };
}

let store: SsoStore | undefined;
/** The process-wide store. */
export function ssoStore(): SsoStore {
  store ??= dynamoSsoStore();
  return store;
}
