import { makeStyles, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { apiKeyWarning, type BankAccountDetail } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { Panel } from '@/app/PageHeader';
import { SecretCell } from '@/components/secret';
import { useT } from '@/i18n';
import { revealBankApiKey, updateBankAccount } from './bankApi';
import { checkApiKey, checkWebhook } from './bankForms';
import { PromptDialog } from './PromptDialog';
import { SigningSecret } from './SigningSecret';
import { WebhookPausedState } from './WebhookPausedState';

const useStyles = makeStyles({
  list: { display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: tokens.spacingVerticalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3, paddingRight: tokens.spacingHorizontalL, alignSelf: 'center' },
  value: { margin: 0, display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  url: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontFamily: tokens.fontFamilyMonospace },
  unset: { color: tokens.colorNeutralForeground3 },
  title: { display: 'block', marginBottom: tokens.spacingVerticalM },
});

/**
 * Where the account's notifications go: the webhook, the API key sent with them and the secret that
 * signs them (both secrets, revealed one at a time).
 */
export function NotificationSection({
  account,
  onChanged,
}: {
  account: BankAccountDetail;
  onChanged(): unknown;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <Panel>
      <Subtitle2 as="h2" className={styles.title}>
        {t('Notification')}
      </Subtitle2>
      <dl className={styles.list}>
        <dt className={styles.term}>{t('Webhook')}</dt>
        <dd className={styles.value}>
          {account.webhook ? (
            <Text className={styles.url} title={account.webhook}>
              {account.webhook}
            </Text>
          ) : (
            <Text className={styles.unset}>{t('Not set')}</Text>
          )}
          <PromptDialog
            title="Edit Webhook"
            label="Webhook URL"
            placeholder="https://"
            hint="Please give the full address including http(s)://"
            initial={account.webhook ?? ''}
            check={checkWebhook(account.webhook)}
            save={(webhook) => updateBankAccount(account, 'webhook', webhook)}
            onDone={onChanged}
          />
          <WebhookPausedState accountId={account.id} />
        </dd>
        <dt className={styles.term}>{t('API Key')}</dt>
        <dd className={styles.value}>
          {account.api_key ? (
            <SecretCell reveal={() => revealBankApiKey(account)} showLabel="Show API key" hideLabel="Hide API key" />
          ) : (
            <Text className={styles.unset}>{t('Not set')}</Text>
          )}
          <PromptDialog
            title="Edit API Key"
            label="API Key"
            initial=""
            check={checkApiKey}
            warn={apiKeyWarning}
            save={(key) => updateBankAccount(account, 'api_key', key)}
            onDone={onChanged}
          />
        </dd>
        <dt className={styles.term}>{t('Signing secret')}</dt>
        <dd className={styles.value}>
          <SigningSecret account={account} />
        </dd>
      </dl>
    </Panel>
  );
}
