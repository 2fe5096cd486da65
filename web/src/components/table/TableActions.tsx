import { ConfirmDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { Button, Tooltip } from '@fluentui/react-components';
import { useState } from 'react';
import type { ActionContext, RowAction, TableAction } from './types';

/** A toolbar action; one needing a selection stays disabled with its tooltip until rows are selected. */
export function TableActionButton<T>({ action, ctx }: { action: TableAction<T>; ctx: ActionContext<T> }) {
  const t = useT();
  if (action.render) return <>{action.render(ctx)}</>;
  const count = ctx.selected.length;
  const needsRows = action.requiresSelection !== undefined && count === 0;
  const label = action.requiresSelection !== undefined && count > 0 ? `${t(action.label)} (${count})` : t(action.label);
  const button = (
    <Button
      appearance={action.appearance ?? 'secondary'}
      icon={action.icon}
      disabledFocusable={needsRows}
      onClick={() => action.onClick?.(ctx)}
    >
      {label}
    </Button>
  );
  return needsRows ? (
    <Tooltip content={t(action.requiresSelection!)} relationship="description">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/** A button of the operations column, asking first when the action has `confirm`. */
export function RowActionButton<T>({ action, row, ctx }: { action: RowAction<T>; row: T; ctx: ActionContext<T> }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  if (action.render) return <>{action.render(row, ctx)}</>;
  const question = action.confirm?.(row);
  return (
    <>
      <Button
        size="small"
        appearance="subtle"
        icon={action.icon}
        disabled={action.disabled?.(row)}
        onClick={() => (question ? setAsking(true) : action.onClick?.(row, ctx))}
      >
        {t(action.label)}
      </Button>
      {question && asking ? (
        <ConfirmDialog
          open
          message={question}
          confirmLabel="OK"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            action.onClick?.(row, ctx);
          }}
        />
      ) : null}
    </>
  );
}
