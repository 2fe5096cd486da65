import { Button, Tooltip } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/**
 * A screen's manual refresh: an icon with a tooltip where the bar holds other controls (a table's
 * toolbar, a detail page's actions), or a labelled button where it is the page's only action.
 * Given `busy`, it is disabled while the screen's answer is on its way, so a second click queues no second call.
 */
export function RefreshButton({
  onRefresh,
  busy,
  labelled,
}: {
  onRefresh(): unknown;
  busy?: boolean;
  labelled?: boolean;
}): ReactNode {
  const t = useT();
  const refresh = () => void onRefresh();
  if (labelled)
    return (
      <Button icon={<ArrowClockwise20Regular />} disabled={busy} onClick={refresh}>
        {t('Refresh')}
      </Button>
    );
  return (
    <Tooltip content={t('Refresh')} relationship="label">
      <Button appearance="subtle" icon={<ArrowClockwise20Regular />} disabled={busy} onClick={refresh} />
    </Tooltip>
  );
}
