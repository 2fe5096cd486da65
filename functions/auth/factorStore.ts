import { held } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { decryptSecret, encryptSecret, type SecretContext } from '../lib/secrets/index.js';

// A user's second factors besides passkeys (functions/auth/passkeys.ts keeps those): one small
// record per user, outside every index, `user_factors#{id}`. Every change that must happen once
// (a TOTP window used, a recovery code spent, an enrolment confirmed) is one conditional write, so
// two parallel requests with the same code cannot both pass.
//
//   totp_enc        the confirmed TOTP secret, encrypted for this record and field (lib/secrets)
//   totp_at         when it was confirmed
//   totp_last_step  the last 30 s window a code was accepted in: a code of that window or an
//                   earlier one is refused, so a code seen over a shoulder cannot be used again
//   pending_enc     a secret being enrolled (shown, not yet confirmed by a first code)
//   recovery        SHA-256 digests of the unused recovery codes (a string set; codes are random,
//                   50 bits each, so a fast digest is enough: nothing to guess from it)

interface FactorRecord {
  totp_enc?: string;
  totp_at?: number;
  totp_last_step?: number;
  pending_enc?: string;
  pending_at?: number;
  /** A string set in the table; read back as an array (keyedRecords' recordData). */
  recovery?: string[] | Set<string>;
  recovery_at?: number;
}

export interface UserFactors {
  totp: boolean;
  totpAt?: number;
  lastStep?: number;
  /** Ciphertexts: decrypt with `totpSecret`. */
  totpEnc?: string;
  pendingEnc?: string;
  recoveryLeft: number;
}

const records = keyedRecords<FactorRecord>('user_factors');
const secretContext = (userId: number): SecretContext => ({ entity: 'user_factors', id: userId, field: 'totp' });

export const encryptTotpSecret = (userId: number, secret: string) => encryptSecret(secret, secretContext(userId));
export const decryptTotpSecret = (userId: number, stored: string) => decryptSecret(stored, secretContext(userId));

/** How many recovery codes a record keeps, whichever form its set came back in. */
const recoveryCount = (record: FactorRecord | undefined) => {
  const set = record?.recovery;
  return set instanceof Set ? set.size : (set?.length ?? 0);
};

export async function userFactors(userId: number): Promise<UserFactors> {
  const item = await records.get(userId, { consistent: true });
  return {
    totp: Boolean(item?.totp_enc),
    ...(item?.totp_at !== undefined ? { totpAt: item.totp_at } : {}),
    ...(item?.totp_last_step !== undefined ? { lastStep: item.totp_last_step } : {}),
    ...(item?.totp_enc ? { totpEnc: item.totp_enc } : {}),
    ...(item?.pending_enc ? { pendingEnc: item.pending_enc } : {}),
    recoveryLeft: recoveryCount(item),
  };
}

/** Keeps a secret being enrolled; a new start replaces an unconfirmed one. */
export async function setPendingTotp(userId: number, pendingEnc: string, now: number): Promise<void> {
  await records.update(userId, { set: { pending_enc: pendingEnc, pending_at: now } });
}

/**
 * Makes the pending secret the user's TOTP, its first code's window used, and the recovery codes
 * new; false when the pending secret changed meanwhile or a TOTP was confirmed by another request.
 */
export async function confirmTotp(
  userId: number,
  pendingEnc: string,
  step: number,
  recoveryDigests: string[],
  now: number,
): Promise<boolean> {
  return held(
    records.update(
      userId,
      {
        set: {
          totp_enc: pendingEnc,
          totp_at: now,
          totp_last_step: step,
          recovery: new Set(recoveryDigests),
          recovery_at: now,
        },
        remove: ['pending_enc', 'pending_at'],
      },
      { when: when.and(when.is('pending_enc', '=', pendingEnc), when.absent('totp_enc')) },
    ),
  );
}

/** Takes a TOTP window as used: false when it (or a later one) was used already. */
export async function takeTotpStep(userId: number, step: number): Promise<boolean> {
  return held(
    records.update(
      userId,
      { set: { totp_last_step: step } },
      {
        when: when.and(
          when.present('totp_enc'),
          when.or(when.absent('totp_last_step'), when.is('totp_last_step', '<', step)),
        ),
      },
    ),
  );
}

/** Spends one recovery code by its digest: false when it is not (or no longer) among the unused. */
export async function spendRecoveryDigest(userId: number, digest: string): Promise<boolean> {
  return held(
    records.update(userId, { deleteFromSet: { recovery: [digest] } }, { when: when.contains('recovery', digest) }),
  );
}

/** Replaces every unused recovery code (a regeneration): the old ones stop working. */
export async function replaceRecoveryDigests(userId: number, digests: string[], now: number): Promise<boolean> {
  return held(
    records.update(
      userId,
      { set: { recovery: new Set(digests), recovery_at: now } },
      { when: when.present('totp_enc') },
    ),
  );
}

/**
 * Removes the TOTP (and an enrolment in progress); the recovery codes go too unless `keepRecovery`
 * (the user still has passkeys they back up). False when there was no TOTP.
 */
export async function removeTotp(userId: number, keepRecovery: boolean): Promise<boolean> {
  return held(
    records.update(
      userId,
      {
        remove: [
          'totp_enc',
          'totp_at',
          'totp_last_step',
          'pending_enc',
          'pending_at',
          ...(keepRecovery ? [] : ['recovery', 'recovery_at']),
        ],
      },
      { when: when.present('totp_enc') },
    ),
  );
}

/** Drops every factor this record keeps (a super's reset); true when there was one. */
export async function removeAllFactors(userId: number): Promise<boolean> {
  const old = await records.remove(userId, { returnOld: true });
  return Boolean(old?.totp_enc || recoveryCount(old));
}
