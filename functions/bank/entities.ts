import type { StoredOf } from '../../shared/listFields.js';
import {
  type BankValue,
  balanceStatListFields,
  bankAccountListFields,
  bankNotificationHistoryListFields,
  bankNotificationListFields,
  statementListFields,
  subAccountListFields,
} from '../../shared/schemas/bank.js';
import { defineEntity } from '../lib/db/entity.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { leaseKind } from '../lib/db/lease.js';
import type { SecretContext } from '../lib/secrets/index.js';

// Every stored shape of the bank feature, declared once. Rows derive from the list declarations in
// shared/schemas/bank.ts (StoredOf); only what storage alone keeps is written here. The small
// records beside them (the poll state, a sub-account's reading position, the day rollups, the
// webhook's delivery health, the claims) are keyed records and leases of lib/db, outside every
// index. The bank store (store.ts) is the one port over all of them.

/** A bank account as stored: secrets only as ciphertexts encrypted for their row and field (bankSecretContext). */
export type StoredBankAccount = StoredOf<
  typeof bankAccountListFields,
  {
    pwd_enc: string;
    api_key_enc: string | null;
    /** Whether an API key is stored (the ciphertext itself is hidden from lists). */
    has_api_key: boolean;
    /** SHA-256 of the API key (apiKeyHash.ts): the inbound webhook finds the account by it. */
    api_key_hash?: string;
    /** The Standard Webhooks signing secret (`whsec_...`), made at the first delivery or reveal. */
    webhook_secret_enc?: string;
    /**
     * The portal session kept between polls (JSON of BankSession): a credential. Written only when
     * a poll signs in again, which is rare; the poll reads it with the account.
     */
    session_enc?: string;
    /** When the account was last enabled (ms): staleness counts from here at the earliest. */
    enabled_at: number;
    /**
     * The alert rules holding on the account as its last poll left them (issue 45): a poll writes the
     * row only when this set changes, with the incidents it opens or resolves as follow-ups.
     */
    rules_firing?: number[];
  }
>;

export type StoredSubAccount = StoredOf<
  typeof subAccountListFields,
  {
    /**
     * When its last balance change was recorded (the poll's or push's instant): the change and
     * this are one write, so a reading saved before it (record.ts readingOf) holds a sum that
     * change already reconciled.
     */
    reconciled_at?: number;
  }
>;

export type StoredStatement = StoredOf<
  typeof statementListFields,
  {
    sub_no: string;
    /** statementKey.ts: the same however many polls or pushes see the line. */
    key: string;
    send_date: string;
    send_time: string;
  }
>;

export type StoredBalanceStat = StoredOf<
  typeof balanceStatListFields,
  {
    sub_no: string;
    /** Its notification's id, chosen before the row is written: writing it again after a failure finds it. */
    notification_id?: number;
  }
>;

export type StoredBankNotification = StoredOf<
  typeof bankNotificationListFields,
  {
    bank_name: BankValue;
    account_user: string;
    sub_no: string | null;
    /**
     * The attempt the webhook's chain of attempts is at: the one whose message may run (a copy of an
     * attempt already settled is dropped), moved by each settling of an attempt in the same write
     * (bank/channelStatus.ts settleChannel), back to 1 by a Replay. Absent until the first settling
     * (and on rows written before it existed): any attempt may run.
     */
    webhook_attempt?: number;
    /** The same for the bank chat's chain of attempts. */
    tg_attempt?: number;
  }
>;

export type StoredHistory = StoredOf<typeof bankNotificationHistoryListFields>;

/** The fields of an account that hold secrets, and the one way to name where each is encrypted. */
export type BankSecretField = 'pwd' | 'api_key' | 'session' | 'webhook_secret';

export const bankSecretContext = (id: number, field: BankSecretField): SecretContext => ({
  entity: 'bank_account',
  id,
  field,
});

export const bankAccountEntity = defineEntity<StoredBankAccount>({
  type: 'bank_account',
  fields: bankAccountListFields,
  keys: ['status', 'bank_name', 'stale', 'api_key_hash'],
  hidden: ['pwd_enc', 'api_key_enc', 'session_enc', 'api_key_hash', 'webhook_secret_enc'],
});

export const subAccountEntity = defineEntity<StoredSubAccount>({
  type: 'bank_sub_account',
  fields: subAccountListFields,
  keys: ['account_id', 'status', 'bank_name'],
});

export const statementEntity = defineEntity<StoredStatement>({
  type: 'bank_statement',
  fields: statementListFields,
  keys: ['sub_account_id', 'account_id', 'bank_name'],
  hidden: ['key'],
  // The largest tables of the product: day buckets, so no partition takes the type's writes; ids
  // from a block per process, so storing a statement makes no round trip to an id counter; counts
  // kept with its notification's and the balance stats' (one ADD per day and per account for all).
  partitioning: { bucket: 'day' },
  ids: 'blocks',
  counterGroup: 'bank',
});

export const balanceStatEntity = defineEntity<StoredBalanceStat>({
  type: 'bank_balance_stat',
  fields: balanceStatListFields,
  keys: ['sub_account_id', 'account_id', 'bank_name', 'reconciled'],
  partitioning: { bucket: 'day' },
  ids: 'blocks',
  counterGroup: 'bank',
});

export const bankNotificationEntity = defineEntity<StoredBankNotification>({
  type: 'bank_notification',
  fields: bankNotificationListFields,
  // notify_webhook: Replay Failed reads the Failed ones by key; an operator filters them the same way.
  keys: ['account_id', 'category', 'status_tg', 'status_webhook', 'notify_webhook'],
  partitioning: { bucket: 'day' },
  ids: 'blocks',
  counterGroup: 'bank',
});

export const bankNotificationHistoryEntity = defineEntity<StoredHistory>({
  type: 'bank_notification_history',
  fields: bankNotificationHistoryListFields,
  keys: ['notification_id', 'channel'],
  ids: 'blocks',
  // A row per delivery attempt, as many as the notifications' (issue 44 item 4): day buckets and the
  // bank's counter items, so its type and channel counts are one ADD on the day's item (with the other
  // bank rows'), not one on the type's item and one on the channel's, and its notification's in the
  // group's item of that notification.
  partitioning: { bucket: 'day' },
  counterGroup: 'bank',
});

// ---- Records beside the rows ---------------------------------------------------------------

/**
 * What the poll state keeps of each sub-account, so a poll that finds no balance moved reads no
 * sub-account row: `[sub id, balance in minor units (null before the first), flags]`.
 */
export type SubSnapshot = Record<string, [id: number, cents: number | null, flags: number]>;
/** Snapshot flags: statements to read whatever the balance (never read, or not yet matched by a balance change). */
export const SNAP_READ = 1;
/** Snapshot flags: the sub-account is Available (the others are not read). */
export const SNAP_USABLE = 2;

/** Per-hour statement counts of the day, `h0`..`h23` (hours of the configured zone). */
export type HourCounts = { [hour: `h${number}`]: number };

/**
 * A day's figures of one account (docs/bank-monitor.md "Rollups"): on the poll state for the
 * current day (moved by the poll's release), then on the day's rollup record.
 */
export interface DayFigures extends HourCounts {
  polls?: number;
  polls_failed?: number;
  statements?: number;
  balances?: number;
  unreconciled?: number;
  /** Delivery outcomes (final ones), added by the delivery to the day's rollup record. */
  wh_sent?: number;
  wh_failed?: number;
  tg_sent?: number;
  tg_failed?: number;
  /** Milliseconds of ended stale episodes that fell on the day (staleness.ts, at the recovery). */
  stale_ms?: number;
}

/**
 * The account's poll record (a reusable lease of lib/db): the poller's lease, the outcome of the
 * last poll, the sub-account snapshot and today's figures. Small (well under 1 KB, one write unit a
 * write) and in no index: a poll takes it and releases it and writes nothing else when nothing moved.
 */
export interface PollStateData extends DayFigures {
  last_refresh?: number;
  last_success?: number;
  last_error?: string;
  last_statement_at?: number;
  /** The sub-accounts as the last poll left them, and the version of the sub-accounts it was built at. */
  subs?: SubSnapshot;
  subs_built?: number;
  /** Bumped by every write of a sub-account outside a poll (the operator's status): the snapshot is rebuilt. */
  subs_version?: number;
  /** The day (YYYY-MM-DD in the configured zone) the figures are of. */
  day?: string;
  /** The poll lag sketch of the day: `l<bucket>` counts (functions/lib/durationSketch.ts). */
  [lag: `l${number}`]: number;
}

/** Keyed by account id; eight partitions, so the dispatcher and the dashboard read them all with eight Queries. */
export const pollStates = leaseKind<PollStateData>('bank_poll', { reusable: true, groups: 8 });

/** Where a sub-account's statements were last read to: one per sub-account, written when they are read. */
export interface SubReading {
  /** The driver's cursor (opaque); null before the first read. */
  cursor: string | null;
  /** Prefixes of the newest statement keys seen: a line read again costs no write. */
  recent: string[];
  /** Signed sum (minor units) and count of statements stored since the last balance change. */
  pending_cents: number;
  pending_count: number;
  /**
   * The instant of the poll or push that saved it. A statement stored after it that the reading
   * does not remember was stored by a writer that died before saving its reading: counted again
   * when read again (record.ts).
   */
  saved_at?: number;
}

export const subReadings = keyedRecords<SubReading>('bank_sub_reading');

/** A day's figures of one account, kept after the day: one partition per day (`${day}/${account}`). */
export const dayRollups = keyedRecords<DayFigures>('bank_day', { compound: true });

/** The dispatcher's window: a reusable lease whose data is the end of the last window sent. */
export const dispatchWindow = leaseKind<{ until?: number }>('bank_dispatch', { reusable: true, sk: 'state' });

/** The webhook's delivery health per account; the key of the records written before issue 24. */
export interface WebhookHealth {
  failures?: number;
  failing_since?: number;
  paused_at?: number;
}
export const webhookHealth = keyedRecords<WebhookHealth>('bank_webhook_state', { sk: 'state' });

/** The accounts whose webhook is paused, as one number set (the delivery dashboard reads one record). */
export const pausedWebhooks = keyedRecords<{ ids?: number[] }>('bank_webhook_paused');

/**
 * That a statement went to its account's webhook: held by the notification delivering it, kept once
 * delivered. The key of the unique claims it was before issue 24 (their `owner` is the notification).
 */
export const deliveredStatements = leaseKind<{ owner?: number }>('unique#bank_webhook#statement', {
  reusable: false,
  sk: 'unique',
});
