import { EMPTY_TEXT } from '@/app/constants';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import {
  Button,
  Field,
  Input,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircle16Filled, Copy16Regular, DismissCircle16Filled, Edit16Regular } from '@fluentui/react-icons';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { Column } from './types';

const useStyles = makeStyles({
  cell: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minWidth: 0,
    maxWidth: '100%',
  },
  text: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '320px' },
  yes: { color: tokens.colorPaletteGreenForeground1 },
  no: { color: tokens.colorPaletteRedForeground1 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '260px' },
  formActions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
});

export async function copyText(text: string, t: (key: string) => string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t('Copy Success'));
  } catch {
    toast.error(t('copy failed'));
  }
}

// Cells use a native title, not a Fluent Tooltip: hundreds of tooltips cost more to mount than the rows.
function CopyButton({ text }: { text: string }) {
  const t = useT();
  return (
    <Button
      size="small"
      appearance="transparent"
      aria-label={t('Copy')}
      title={t('Copy')}
      icon={<Copy16Regular />}
      onClick={() => copyText(text, t)}
    />
  );
}

function EditPopover<T>({ column, row, onSaved }: { column: Column<T>; row: T; onSaved(): unknown }) {
  const t = useT();
  const styles = useStyles();
  // The popup mounts on first use only, so a page of rows does not carry one per cell.
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const edit = column.edit!;
  const label = `${t('Edit')} ${t(column.label)}`;
  const trigger = (onClick?: () => void) => (
    <Button
      size="small"
      appearance="transparent"
      aria-label={label}
      title={label}
      icon={<Edit16Regular />}
      onClick={onClick}
    />
  );
  if (!armed) {
    return trigger(() => {
      setValue(String(column.value(row) ?? ''));
      setArmed(true);
      setOpen(true);
    });
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const typed = column.kind === 'number' ? Number(value) : value;
      await (edit.save as (row: T, value: unknown) => Promise<unknown>)(row, typed);
      setOpen(false);
      await onSaved();
    } catch {
      // The request layer has shown the failure tip; keep the popup so the user can correct the value.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Popover
      open={open}
      trapFocus
      withArrow
      onOpenChange={(_, d) => {
        setOpen(d.open);
        if (d.open) setValue(String(column.value(row) ?? ''));
      }}
    >
      <PopoverTrigger disableButtonEnhancement>{trigger()}</PopoverTrigger>
      <PopoverSurface>
        <form className={styles.form} onSubmit={submit}>
          <Field label={t(column.label)} hint={edit.hint ? t(edit.hint) : undefined}>
            <Input
              autoFocus
              type={column.kind === 'number' ? 'number' : 'text'}
              value={value}
              onChange={(_, d) => setValue(d.value)}
            />
          </Field>
          <div className={styles.formActions}>
            <Button size="small" onClick={() => setOpen(false)}>
              {t('Cancel')}
            </Button>
            <Button size="small" appearance="primary" type="submit" disabled={saving}>
              {t('Save')}
            </Button>
          </div>
        </form>
      </PopoverSurface>
    </Popover>
  );
}

function ToggleSwitch<T>({ column, row, onSaved }: { column: Column<T>; row: T; onSaved(): unknown }) {
  const t = useT();
  // Shows the new state while the call runs, and falls back when it fails.
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? Boolean(column.value(row));
  return (
    <Switch
      aria-label={t(column.label)}
      checked={checked}
      disabled={pending !== null}
      onChange={async (_, d) => {
        setPending(d.checked);
        try {
          await column.toggle!(row, d.checked);
          await onSaved();
        } catch {
          // Failure tip shown by the request layer.
        } finally {
          setPending(null);
        }
      }}
    />
  );
}

/** One cell: the value as text (or icon / switch / custom render), plus copy and edit buttons. */
export function CellContent<T>({ column, row, onSaved }: { column: Column<T>; row: T; onSaved(): unknown }) {
  const t = useT();
  const styles = useStyles();
  if (column.toggle) return <ToggleSwitch column={column} row={row} onSaved={onSaved} />;

  const text = column.text(row);
  let body: ReactNode;
  if (column.render) body = column.render(row);
  else if (column.kind === 'boolean') {
    const v = column.value(row);
    body =
      v === null || v === undefined ? (
        EMPTY_TEXT
      ) : v ? (
        <CheckmarkCircle16Filled className={styles.yes} aria-label={t('Yes')} />
      ) : (
        <DismissCircle16Filled className={styles.no} aria-label={t('No')} />
      );
  } else {
    body = (
      <span className={styles.text} title={text}>
        {text === '' ? EMPTY_TEXT : column.kind === 'enum' ? t(text) : text}
      </span>
    );
  }
  return (
    <span className={styles.cell}>
      {body}
      {column.copyable && text !== '' ? <CopyButton text={text} /> : null}
      {column.edit ? <EditPopover column={column} row={row} onSaved={onSaved} /> : null}
    </span>
  );
}
