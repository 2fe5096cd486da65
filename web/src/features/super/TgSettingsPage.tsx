import {
  Badge,
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  Spinner,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { SaveRegular, SendRegular } from '@fluentui/react-icons';
import {
  type TelegramCategory,
  type TelegramChannelState,
  TelegramSettingsInput,
  type TelegramSettingsView,
  type TelegramTestReply,
  type TelegramWebhookState,
} from '@shared/schemas/telegram';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { formatDateTime } from '@/app/format';
import { PageHeader, Panel } from '@/app/PageHeader';
import { checkWith } from '@/components/dialog/checkWith';
import { useDocumentForm } from '@/components/form/useDocumentForm';
import { useT } from '@/i18n';
import { PasswordInput } from './PasswordInput';
import { saveTgSettings, sendTgTest, tgSettingsQuery } from './tgSettingsApi';

const useStyles = makeStyles({
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(280px, 2fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  category: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  answerTitle: { display: 'block', marginBottom: tokens.spacingVerticalS },
  categoryHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  answer: {
    margin: 0,
    maxHeight: '50vh',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
  },
});

interface Draft {
  /** What the operator typed; empty keeps the stored token. */
  bot_token: string;
  check_chat_id: string;
  bank_chat_id: string;
  check_enabled: boolean;
  bank_enabled: boolean;
  per_subtask: boolean;
  escalation_chat_id: string;
}

const draftOf = (v: TelegramSettingsView): Draft => ({
  bot_token: '',
  check_chat_id: v.check_chat_id,
  bank_chat_id: v.bank_chat_id,
  check_enabled: v.check_enabled,
  bank_enabled: v.bank_enabled,
  per_subtask: v.per_subtask,
  escalation_chat_id: v.escalation_chat_id ?? '',
});

/** The body sent: the token only when a new one was typed (the page never holds the stored one). */
const inputOf = ({ bot_token, ...rest }: Draft) => (bot_token.trim() ? { ...rest, bot_token } : rest);

function ChannelBadge({ channel }: { channel: TelegramChannelState }): ReactNode {
  const t = useT();
  if (channel.state === 'ok') return <Badge color="success">{t('Delivering')}</Badge>;
  if (channel.state === 'failed') return <Badge color="danger">{t('Failed')}</Badge>;
  return <Badge color="informative">{t('Not used yet')}</Badge>;
}

/** Where Telegram delivers button presses and /start: registered at every save with a token. */
function WebhookState({ webhook }: { webhook: TelegramWebhookState }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <section className={styles.category} aria-label={t('Webhook')}>
      <div className={styles.categoryHead}>
        <Text weight="semibold">{t('Webhook')}</Text>
        {webhook.state === 'ok' ? (
          <Badge color="success">{t('Registered')}</Badge>
        ) : webhook.state === 'failed' ? (
          <Badge color="danger">{t('Failed')}</Badge>
        ) : (
          <Badge color="informative">{t('Not registered')}</Badge>
        )}
      </div>
      <Text size={200}>
        {webhook.url
          ? t('Button presses and /start reach {url}', { url: webhook.url })
          : t('Saved with a bot token, the bot is told where to deliver button presses (PUBLIC_URL).')}
      </Text>
      {webhook.state === 'failed' ? (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>{t('Telegram refused the webhook')}</MessageBarTitle>
            {webhook.reason}
          </MessageBarBody>
        </MessageBar>
      ) : null}
    </section>
  );
}

const CATEGORY_TITLES: Record<TelegramCategory, string> = {
  check: 'Check notifications',
  bank: 'Bank notifications',
};

/** '/super/notification/tg': the Telegram bot, the chat of each category, and a test message per chat. */
export default function TgSettingsPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const queryClient = useQueryClient();
  const { data } = useQuery(tgSettingsQuery);
  const { draft, errors, busy, edit, submit } = useDocumentForm({
    document: data,
    toDraft: draftOf,
    check: (d) => checkWith(TelegramSettingsInput, inputOf(d)),
    save: saveTgSettings,
    onSaved: (saved) => queryClient.setQueryData(tgSettingsQuery.queryKey, saved),
  });
  const [testing, setTesting] = useState<TelegramCategory | null>(null);
  const [reply, setReply] = useState<TelegramTestReply | null>(null);

  if (!data || !draft) {
    return (
      <>
        <PageHeader title={t('TG notification')} />
        <Spinner label={t('Loading')} />
      </>
    );
  }

  const message = (key: string) => (errors[key] ? t(errors[key]) : undefined);
  const change = <K extends keyof Draft>(key: K, value: Draft[K]) => edit(key, (d) => ({ ...d, [key]: value }));

  const test = async (category: TelegramCategory) => {
    setTesting(category);
    setReply(null);
    try {
      setReply(await sendTgTest(category));
      // The chat's state (delivering / failed) changed with this answer.
      await queryClient.invalidateQueries({ queryKey: tgSettingsQuery.queryKey });
    } catch {
      // The failure tip has been shown (e.g. no token or chat set yet).
    } finally {
      setTesting(null);
    }
  };

  const category = (c: TelegramCategory) => {
    const channel = data.channels[c];
    const saved = data[`${c}_chat_id`];
    return (
      <section className={styles.category} aria-label={t(CATEGORY_TITLES[c])}>
        <div className={styles.categoryHead}>
          <Text weight="semibold">{t(CATEGORY_TITLES[c])}</Text>
          <ChannelBadge channel={channel} />
        </div>
        {channel.state === 'failed' && (
          <MessageBar intent="error">
            <MessageBarBody>
              <MessageBarTitle>{t('Telegram refused the last message')}</MessageBarTitle>
              {channel.reason}
            </MessageBarBody>
          </MessageBar>
        )}
        <Switch
          label={t('Send {category} to Telegram', { category: t(CATEGORY_TITLES[c]).toLowerCase() })}
          checked={draft[`${c}_enabled`]}
          onChange={(_, d) => change(`${c}_enabled`, d.checked)}
        />
        <Field
          label={t('Chat ID')}
          hint={t('A number such as -1001234567890, or a public @channelname')}
          validationMessage={message(`${c}_chat_id`)}
        >
          <Input
            name={`${c}_chat_id`}
            value={draft[`${c}_chat_id`]}
            onChange={(_, d) => change(`${c}_chat_id`, d.value)}
          />
        </Field>
        <div className={styles.actions}>
          <Button
            icon={<SendRegular />}
            disabled={testing !== null || !data.bot_token_set || !saved}
            onClick={() => void test(c)}
            aria-label={t('Send test message to the {category} chat', { category: c })}
          >
            {testing === c ? t('Sending…') : t('Send test message')}
          </Button>
        </div>
      </section>
    );
  };

  return (
    <>
      <PageHeader
        title={t('TG notification')}
        subtitle={
          data.updated_at
            ? t('Saved by {nickname} at {time}', {
                nickname: data.updated_by?.nickname ?? 'SYSTEM',
                time: formatDateTime(data.updated_at),
              })
            : t('Not set up yet')
        }
      />
      <div className={styles.columns}>
        <Panel>
          <form onSubmit={submit} noValidate aria-label={t('TG notification settings')} className={styles.form}>
            <Field
              label={t('Bot token')}
              hint={
                data.bot_token_set
                  ? t('Stored encrypted ({masked}). Leave empty to keep it.', { masked: data.bot_token })
                  : t('From BotFather, e.g. 123456:ABC-def…')
              }
              validationMessage={message('bot_token')}
            >
              <PasswordInput
                name="bot_token"
                autoComplete="off"
                placeholder={data.bot_token_set ? data.bot_token : ''}
                value={draft.bot_token}
                onChange={(_, d) => change('bot_token', d.value)}
              />
            </Field>
            <WebhookState webhook={data.webhook} />
            {category('check')}
            {category('bank')}
            <Switch
              label={t('A message for every finished subtask')}
              checked={draft.per_subtask}
              onChange={(_, d) => change('per_subtask', d.checked)}
            />
            <Text size={200}>
              {t('Off: one message per operation when it ends, with its sites and each failed subtask.')}
            </Text>
            <Field
              label={t('Escalation chat ID')}
              hint={t(
                'Incidents nobody acknowledges are escalated to this chat first, then to the linked super users.',
              )}
              validationMessage={message('escalation_chat_id')}
            >
              <Input
                name="escalation_chat_id"
                value={draft.escalation_chat_id}
                onChange={(_, d) => change('escalation_chat_id', d.value)}
              />
            </Field>
            <div className={styles.actions}>
              <Button type="submit" appearance="primary" icon={<SaveRegular />} disabled={busy}>
                {t('Save')}
              </Button>
            </div>
          </form>
        </Panel>
        <Panel>
          <figure style={{ margin: 0 }} aria-label={t('Telegram answer')}>
            <Text as="h2" weight="semibold" className={styles.answerTitle}>
              {t('Telegram answer')}
            </Text>
            {reply ? (
              <>
                <MessageBar intent={reply.ok ? 'success' : 'error'}>
                  <MessageBarBody>
                    {reply.ok
                      ? t('Delivered to chat {chat}', { chat: reply.chat_id })
                      : t('Not delivered to chat {chat}: {reason}', { chat: reply.chat_id, reason: reply.error ?? '' })}
                  </MessageBarBody>
                </MessageBar>
                <pre className={styles.answer}>{JSON.stringify(reply.answer, null, 2)}</pre>
              </>
            ) : (
              <Text as="p">{t('Send a test message to see what Telegram answers.')}</Text>
            )}
          </figure>
        </Panel>
      </div>
    </>
  );
}
