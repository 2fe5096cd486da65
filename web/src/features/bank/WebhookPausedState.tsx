import { Badge, Button, makeStyles, tokens } from '@fluentui/react-components';
import type { WebhookState } from '@shared/schemas/bankWebhook';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';
import { BANK_ACCOUNTS } from './bankApi';

const useStyles = makeStyles({ row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS } });

const webhookStateQuery = (accountId: number) => ({
  queryKey: queryKeys.related(BANK_ACCOUNTS, 'webhook-state', accountId),
  // Only the paused state shows; a failed read leaves the section as it was, without a tip.
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    request<WebhookState>({ url: `/bank/bank-account/${accountId}/webhook-state`, signal, silent: true }),
});

/**
 * After too many consecutive failures the account's webhook is paused (deliveries end Channel
 * Closed, docs/notifications.md); this says so beside the webhook and offers Resume. Nothing shows otherwise.
 */
export function WebhookPausedState({ accountId }: { accountId: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data, refetch } = useQuery(webhookStateQuery(accountId));
  const [busy, setBusy] = useState(false);
  if (!data?.paused) return null;
  const resume = async () => {
    setBusy(true);
    try {
      await request<WebhookState>({
        method: 'POST',
        url: `/bank/bank-account/${accountId}/webhook-resume`,
        successTip: 'Webhook resumed.',
        failureTip: 'Resume webhook failed.',
      });
    } catch {
      // The failure tip has been shown.
    } finally {
      setBusy(false);
      await refetch();
    }
  };
  return (
    <span className={styles.row}>
      <Badge appearance="tint" color="danger" title={data.paused_at ? formatDateTime(data.paused_at) : undefined}>
        {t('Paused after {count} failures', { count: data.consecutive_failures })}
      </Badge>
      <Button size="small" disabled={busy} onClick={() => void resume()}>
        {t('Resume')}
      </Button>
    </span>
  );
}
