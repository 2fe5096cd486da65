import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Tooltip } from '@fluentui/react-components';
import { ChevronDown16Regular, ToggleMultiple20Regular } from '@fluentui/react-icons';
import type { SubAccount, SwitchStatus } from '@shared/schemas/bank';
import { type ReactNode, useState } from 'react';
import type { ActionContext } from '@/components/table';
import { useT } from '@/i18n';
import { batchSwitchSubAccounts, SWITCH } from './bankApi';

export const SELECT_SUBS_FIRST = 'Please select some sub accounts first';

/**
 * The batch menu of the Bank Sub Account table: enable (1) or disable (99) every selected
 * sub-account in one call. Disabled, with its tip, until rows are selected; afterwards it shows
 * the count. A success clears the selection; a failure keeps it for another try.
 */
export function BatchSwitchMenu({ ctx, onDone }: { ctx: ActionContext<SubAccount>; onDone: () => unknown }): ReactNode {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const count = ctx.selected.length;
  const run = async (status: SwitchStatus) => {
    setBusy(true);
    try {
      await batchSwitchSubAccounts({ sub_account_ids: ctx.selected.map((s) => s.id), status });
      ctx.clearSelection();
      await Promise.all([ctx.refetch(), onDone()]);
    } catch {
      // The request layer has shown the batch's failure tip.
    } finally {
      setBusy(false);
    }
  };
  const trigger = (
    <Button icon={<ToggleMultiple20Regular />} disabledFocusable={count === 0 || busy} iconPosition="before">
      {count ? `${t('Batch')} (${count})` : t('Batch')}
      <ChevronDown16Regular />
    </Button>
  );
  if (count === 0) {
    return (
      <Tooltip content={t(SELECT_SUBS_FIRST)} relationship="description">
        {trigger}
      </Tooltip>
    );
  }
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>{trigger}</MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem onClick={() => void run(SWITCH.enable)}>{t('Batch enable')}</MenuItem>
          <MenuItem onClick={() => void run(SWITCH.disable)}>{t('Batch disable')}</MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
