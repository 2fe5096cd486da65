import { Button } from '@fluentui/react-components';
import { type ReactElement, type ReactNode, useState } from 'react';
import { useT } from '@/i18n';

/**
 * A row's small button that opens a dialog (View, Play, Detail, Logs, Checkpoint, a log's details).
 * The dialog mounts only once opened, so a page of rows carries no dialog per row; `dialog(close)` draws it.
 */
export function DialogButton({
  label,
  count,
  icon,
  disabled,
  dialog,
}: {
  /** Translated here. */
  label: string;
  /** Shown after the label, e.g. a count of rows. */
  count?: number;
  icon?: ReactElement;
  disabled?: boolean;
  dialog(close: () => void): ReactNode;
}): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" appearance="subtle" icon={icon} disabled={disabled} onClick={() => setOpen(true)}>
        {count === undefined ? t(label) : `${t(label)} (${count})`}
      </Button>
      {open ? dialog(() => setOpen(false)) : null}
    </>
  );
}
