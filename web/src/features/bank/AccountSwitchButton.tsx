import { Button } from '@fluentui/react-components';
import { Pause20Regular, Play20Regular } from '@fluentui/react-icons';
import { BankAccountStatus } from '@shared/enums';
import type { BankAccount } from '@shared/schemas/bank';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { SWITCH, updateBankAccount } from './bankApi';

/**
 * Spec section 4: an enabled account (status 1) shows Disable, which sets 99 and stops its
 * monitoring; any other status (Disable, or Incorrect/Locked/Wrong after a failed poll) shows
 * Enable, which sets 1 and restarts it with no other step.
 */
export function AccountSwitchButton({
  account,
  onDone,
}: {
  account: Pick<BankAccount, 'id' | 'status'>;
  onDone: () => unknown;
}): ReactNode {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const enabled = account.status === BankAccountStatus.values.Enable;
  const click = async () => {
    setBusy(true);
    try {
      await updateBankAccount(account, 'status', enabled ? SWITCH.disable : SWITCH.enable);
      await onDone();
    } catch {
      // 'Switch account failed' has been shown.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      appearance={enabled ? 'secondary' : 'primary'}
      icon={enabled ? <Pause20Regular /> : <Play20Regular />}
      disabled={busy}
      onClick={() => void click()}
    >
      {t(enabled ? 'Disable' : 'Enable')}
    </Button>
  );
}
