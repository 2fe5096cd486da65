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
      isEmpty={(d) => d.webhook.sent + d.webhook.failed + d.telegram.sent + d.telegram.failed === 0}
      emptyText="Nothing delivered in the last 24 hours"
    >
      {({ webhook, telegram }) => (
        <>
          <div className={styles.figures}>
            <Figure
              label="Webhook success rate"
              value={percent(webhook.success_rate)}
              tone={webhook.success_rate !== null && webhook.success_rate < 0.95 ? 'bad' : 'good'}
            />
            <Figure label="Webhooks failed" value={webhook.failed} tone={webhook.failed ? 'bad' : undefined} />
            <Figure
              label="Paused endpoints"
              value={webhook.paused_endpoints.length}
              tone={webhook.paused_endpoints.length ? 'bad' : 'good'}
            />
            <Figure label="Telegram sent" value={telegram.sent} />
            <Figure label="Telegram failures" value={telegram.failed} tone={telegram.failed ? 'bad' : 'good'} />
          </div>
          {webhook.paused_endpoints.length ? (
            <Text size={200}>
              {t('Paused')}: {webhook.paused_endpoints.map((id) => `#${id}`).join(', ')}
            </Text>
          ) : null}
        </>
      )}
    </Panel>
  );
}
