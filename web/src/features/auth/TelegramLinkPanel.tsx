import { Button, Link, makeStyles, MessageBar, MessageBarBody, Text, tokens } from '@fluentui/react-components';
import { Send20Regular } from '@fluentui/react-icons';
import type { TelegramLinkCode } from '@shared/schemas/telegramBot';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { formatDateTime } from '@/app/format';
import { Panel } from '@/app/PageHeader';
import { CopyButton } from '@/components/table/CellContent';
import { useT } from '@/i18n';
import { newTelegramLinkCode, telegramLinkQuery, unlinkTelegram } from './authApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  code: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeHero700,
    letterSpacing: '0.15em',
    fontWeight: tokens.fontWeightSemibold,
  },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/**
 * Settings: the user's Telegram account, linked once so its button presses act as this user. Link
 * shows a one-time code to send to the bot as `/start <code>` (ten minutes); the panel sees the link
 * appear by itself.
 */
export function TelegramLinkPanel(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const [code, setCode] = useState<TelegramLinkCode | null>(null);
  // While a code is shown, look every two seconds whether the bot got it.
  const link = useQuery({ ...telegramLinkQuery, refetchInterval: code ? 2000 : false });
  const linked = link.data?.linked === true;
  useEffect(() => {
    if (linked) setCode(null);
  }, [linked]);

  const start = async () => {
    try {
      setCode(await newTelegramLinkCode());
    } catch {
      // The failure tip has been shown.
    }
  };
  const unlink = async () => {
    try {
      client.setQueryData(telegramLinkQuery.queryKey, await unlinkTelegram());
    } catch {
      // The failure tip has been shown.
    }
  };
  const command = code ? `/start ${code.token}` : '';
  return (
    <Panel style={{ maxWidth: 560 }}>
      <section className={styles.root} aria-label={t('Telegram')}>
        <Text as="h2" size={500} weight="semibold" style={{ margin: 0 }}>
          {t('Telegram')}
        </Text>
        {linked && link.data?.telegram ? (
          <>
            <Text>
              {t('Linked to {who} since {time}: incident buttons you press in Telegram act as you.', {
                who: link.data.telegram.username
                  ? `@${link.data.telegram.username}`
                  : (link.data.telegram.name ?? String(link.data.telegram.id)),
                time: formatDateTime(link.data.linked_at),
              })}
            </Text>
            <div className={styles.row}>
              <Button onClick={() => void unlink()}>{t('Unlink')}</Button>
            </div>
          </>
        ) : code ? (
          <>
            <Text>{t('Send this to the bot in Telegram within ten minutes:')}</Text>
            <div className={styles.row}>
              <span className={styles.code} data-testid="telegram-link-command">
                {command}
              </span>
              <CopyButton text={command} />
            </div>
            {code.bot_username ? (
              <Link href={`https://t.me/${code.bot_username}?start=${code.token}`} target="_blank" rel="noopener">
                {t('Open @{bot} in Telegram', { bot: code.bot_username })}
              </Link>
            ) : null}
            <MessageBar intent="info">
              <MessageBarBody>{t('Waiting for the bot to receive the code…')}</MessageBarBody>
            </MessageBar>
          </>
        ) : (
          <>
            <Text>{t('Link your Telegram account once to act on incidents from the chat.')}</Text>
            <div className={styles.row}>
              <Button appearance="primary" icon={<Send20Regular />} onClick={() => void start()}>
                {t('Link Telegram')}
              </Button>
            </div>
          </>
        )}
      </section>
    </Panel>
  );
}
