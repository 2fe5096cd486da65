import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { deliveryQuery } from '../dashboardApi';
import { Figure, Panel, percent } from './Panel';

const useStyles = makeStyles({
  figures: { display: 'flex', gap: tokens.spacingHorizontalXL, flexWrap: 'wrap' },
});

/** Webhook success rate, paused endpoints and Telegram failures (GET /dashboard/delivery). */
export function DeliveryPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const query = useQuery(deliveryQuery(refetchInterval));
  return (
    <Panel
      title="Delivery"
      query={query}
      isEmpty={(d) => d.webhooks.sent + d.webhooks.failed + d.telegram.sent + d.telegram.failed === 0}
      emptyText="Nothing delivered in the last 24 hours"
    >
      {({ webhooks, telegram }) => (
        <>
          <div className={styles.figures}>
            <Figure
              label="Webhook success rate"
              value={percent(webhooks.success_rate)}
              tone={webhooks.success_rate !== null && webhooks.success_rate < 0.95 ? 'bad' : 'good'}
            />
            <Figure label="Webhooks failed" value={webhooks.failed} tone={webhooks.failed ? 'bad' : undefined} />
            <Figure
              label="Paused endpoints"
              value={webhooks.paused_endpoints.length}
              tone={webhooks.paused_endpoints.length ? 'bad' : 'good'}
            />
            <Figure label="Telegram sent" value={telegram.sent} />
            <Figure label="Telegram failures" value={telegram.failed} tone={telegram.failed ? 'bad' : 'good'} />
          </div>
          {webhooks.paused_endpoints.length ? (
            <Text size={200}>
              {t('Paused')}: {webhooks.paused_endpoints.map((id) => `#${id}`).join(', ')}
            </Text>
          ) : null}
        </>
      )}
    </Panel>
  );
}
