import { Button } from '@fluentui/react-components';
import { SubAccountStatus } from '@shared/enums';
import type { SubAccount } from '@shared/schemas/bank';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { SWITCH, switchSubAccount } from './bankApi';

/**
 * Spec section 4: an available sub-account (status 1) shows Disable, which sets 99; any other
 * status shows Enable, which sets 1. Disabling stops its statements being polled.
 */
export function SubAccountSwitchButton({
  sub,
  onDone,
  size = 'small',
}: {
  sub: Pick<SubAccount, 'id' | 'status'>;
  onDone: () => unknown;
  size?: 'small' | 'medium';
}): ReactNode {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const enabled = sub.status === SubAccountStatus.values.Available;
  const click = async () => {
    setBusy(true);
    try {
      await switchSubAccount(sub, enabled ? SWITCH.disable : SWITCH.enable);
      await onDone();
    } catch {
      // 'Switch sub account failed' has been shown.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size={size} appearance={enabled ? 'subtle' : 'primary'} disabled={busy} onClick={() => void click()}>
      {t(enabled ? 'Disable' : 'Enable')}
    </Button>
  );
}
