import type { TelegramCategory, TelegramChannelState, TelegramWebhookState } from '../../../shared/schemas/telegram.js';
import { ConditionFailedError, defineEntity } from '../../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../../lib/db/repository.js';
import { telegramSettingsSaved } from './settingsSaved.js';

/** The Telegram settings as stored: one row; the token only encrypted, and hidden from plain reads. */
export interface StoredTelegramSettings {
  id: number;
  created_at: number;
  /** encryptSecret(token, TOKEN_CONTEXT); null when none is set. Hidden: only `withToken` reads it. */
  bot_token_enc: string | null;
  /** maskSecret of the token, taken when it was saved: what the page shows. */
  bot_token_hint: string;
  check_chat_id: string;
  bank_chat_id: string;
  check_enabled: boolean;
  bank_enabled: boolean;
  per_subtask: boolean;
  /** The chat an unacknowledged incident escalates to first (issue 45); absent on rows saved before. */
  escalation_chat_id?: string;
  check_channel: TelegramChannelState;
  bank_channel: TelegramChannelState;
  /**
   * encryptSecret(secret, WEBHOOK_SECRET_CONTEXT): what Telegram sends back in the secret header of
   * every webhook delivery. Made by the product at the first save with a token; hidden like the token.
   */
  webhook_secret_enc?: string | null;
  webhook?: TelegramWebhookState;
  updated_at: number | null;
  updated_by: { id: number; nickname: string } | null;
}

export type TelegramSettingsRecord = Omit<StoredTelegramSettings, 'id' | 'created_at'>;

/** Where the encrypted token is bound (secrets envelope): this entity, this record, this field. */
export const TOKEN_CONTEXT = { entity: 'telegram_settings', id: 1, field: 'bot_token' } as const;
export const WEBHOOK_SECRET_CONTEXT = { entity: 'telegram_settings', id: 1, field: 'webhook_secret' } as const;

/** Where the Telegram settings live; the service and the sender depend on this port, not on DynamoDB. */
export interface TelegramSettingsStore {
  /** Without the encrypted token; undefined before the first save. */
  get(): Promise<StoredTelegramSettings | undefined>;
  /** With the encrypted token, for the sender. */
  withToken(): Promise<StoredTelegramSettings | undefined>;
  save(settings: TelegramSettingsRecord): Promise<void>;
  /** Records how the last delivery to a category's chat went (only that category's field is written). */
  setChannel(category: TelegramCategory, state: TelegramChannelState): Promise<void>;
  /** Records the webhook's secret (encrypted) and how its registration went; only those fields are written. */
  setWebhook(
    patch: Pick<StoredTelegramSettings, 'webhook'> & Partial<Pick<StoredTelegramSettings, 'webhook_secret_enc'>>,
  ): Promise<void>;
}

const ROW_ID = 1;
const settingsEntity = defineEntity<StoredTelegramSettings>({
  type: 'telegramSettings',
  fields: { id: 'number' },
  hidden: ['bot_token_enc', 'webhook_secret_enc'],
});

export const UNKNOWN_CHANNEL: TelegramChannelState = { state: 'unknown', reason: null, at: null };
export const UNKNOWN_WEBHOOK: TelegramWebhookState = { state: 'unknown', url: null, reason: null, at: null };

export function dynamoTelegramSettingsStore(
  repo: DynamoRepository<StoredTelegramSettings> = createRepository(settingsEntity),
): TelegramSettingsStore {
  const settings: TelegramSettingsStore = {
    get: () => repo.get(ROW_ID),
    withToken: () => repo.getWithHidden(ROW_ID),
    async save(settings) {
      if (await repo.getWithHidden(ROW_ID)) {
        await repo.update(ROW_ID, settings);
        return;
      }
      try {
        await repo.create(settings, { id: ROW_ID });
      } catch (error) {
        // Two first saves at once: the later one updates what the first created.
        if (!(error instanceof ConditionFailedError)) throw error;
        await repo.update(ROW_ID, settings);
      }
    },
    async setWebhook(patch) {
      await repo.update(ROW_ID, patch);
    },
    async setChannel(category, state) {
      try {
        await repo.update(ROW_ID, { [`${category}_channel`]: state } as Partial<StoredTelegramSettings>);
      } catch (error) {
        // No settings row: nothing was configured, so there is no channel to mark.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
  // Every write tells who keeps a copy in this process (the notification plans, the bank chat switch).
  const announced =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      try {
        await write(...args);
      } finally {
        telegramSettingsSaved();
      }
    };
  return {
    ...settings,
    save: announced(settings.save),
    setWebhook: announced(settings.setWebhook),
    setChannel: announced(settings.setChannel),
  };
}

let store: TelegramSettingsStore | undefined;
/** The process-wide store. */
export function telegramSettingsStore(): TelegramSettingsStore {
  store ??= dynamoTelegramSettingsStore();
  return store;
}
