import { EMPTY_TEXT } from '@/app/constants';
import { toast } from '@/app/toast';
import {
  Button,
  createFocusOutlineStyle,
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
import type { TFunction } from 'i18next';
import { useT } from '@/i18n';
import { type FormEvent, forwardRef, type ReactNode, useEffect, useRef, useState } from 'react';
import type { Column } from './types';

// Body cells are the hot path of every table: a page of 100 rows is ~1,000 cells. They are plain
// elements with classes computed once per table (not a Fluent component and a style hook per cell);
// only what holds state (the edit popup, the row switch) is a component. See bench/tableRender.bench.ts.
export const useCellClasses = makeStyles({
  cell: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minWidth: 0,
    maxWidth: '100%',
  },
  // Inline-block so the ellipsis works outside a flex box too (cells without buttons have no wrapper).
  text: {
    display: 'inline-block',
    verticalAlign: 'middle',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    maxWidth: '320px',
  },
  yes: { color: tokens.colorPaletteGreenForeground1 },
  no: { color: tokens.colorPaletteRedForeground1 },
  // The look of Fluent's small transparent icon Button, at a fraction of its mount cost.
  iconButton: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '24px',
    height: '24px',
    padding: 0,
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground2,
    cursor: 'pointer',
    ':hover': { color: tokens.colorNeutralForeground2BrandHover },
    ':active': { color: tokens.colorNeutralForeground2BrandPressed },
    ...createFocusOutlineStyle(),
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '260px' },
  formActions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
});

export type CellClasses = ReturnType<typeof useCellClasses>;

/** What every cell of a table shares; one object per table render, so memoised rows compare it cheaply. */
export interface CellEnv {
  t: TFunction;
  classes: CellClasses;
  onSaved(): unknown;
  /** A viewer's table: switches show their state but do not move, and no edit popup is offered. */
  readOnly?: boolean;
}

export async function copyText(text: string, t: (key: string) => string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t('Copy Success'));
  } catch {
    toast.error(t('copy failed'));
  }
}

/** A small copy-to-clipboard icon button outside tables (a site's link, an account id in a dialog). */
export function CopyButton({ text }: { text: string }): ReactNode {
  const t = useT();
  return (
    <Button
      size="small"
      appearance="transparent"
      icon={<Copy16Regular />}
      aria-label={t('Copy')}
      title={t('Copy')}
      onClick={() => void copyText(text, t)}
    />
  );
}

// Cells use a native title, not a Fluent Tooltip: hundreds of tooltips cost more to mount than the rows.
const IconButton = forwardRef<
  HTMLButtonElement,
  { label: string; icon: ReactNode; className: string; onClick?(): void }
>(function IconButton({ label, icon, className, onClick, ...rest }, ref) {
  return (
    // `rest` carries what a PopoverTrigger adds (aria-expanded, handlers).
    <button {...rest} ref={ref} type="button" className={className} aria-label={label} title={label} onClick={onClick}>
      {icon}
    </button>
  );
});

function EditPopover<T>({ column, row, env }: { column: Column<T>; row: T; env: CellEnv }) {
  const { t, classes } = env;
  // The popup mounts on first use only, so a page of rows does not carry one per cell.
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Focus once the popup is placed: an autoFocus focuses before Fluent positions the surface,
  // which it warns makes the page jump. The surface's effects run before this one.
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  const edit = column.edit!;
  const label = `${t('Edit')} ${t(column.label)}`;
  if (!armed) {
    return (
      <IconButton
        label={label}
        icon={<Edit16Regular />}
        className={classes.iconButton}
        onClick={() => {
          setValue(String(column.value(row) ?? ''));
          setArmed(true);
          setOpen(true);
        }}
      />
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const typed = column.kind === 'number' ? Number(value) : value;
      await (edit.save as (row: T, value: unknown) => Promise<unknown>)(row, typed);
      setOpen(false);
      await env.onSaved();
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
      <PopoverTrigger disableButtonEnhancement>
        <IconButton label={label} icon={<Edit16Regular />} className={classes.iconButton} />
      </PopoverTrigger>
      <PopoverSurface>
        <form className={classes.form} onSubmit={submit}>
          <Field label={t(column.label)} hint={edit.hint ? t(edit.hint) : undefined}>
            <Input
              ref={input}
              type={column.kind === 'number' ? 'number' : 'text'}
              value={value}
              onChange={(_, d) => setValue(d.value)}
            />
          </Field>
          <div className={classes.formActions}>
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

function ToggleSwitch<T>({ column, row, env }: { column: Column<T>; row: T; env: CellEnv }) {
  // Shows the new state while the call runs, and falls back when it fails.
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? Boolean(column.value(row));
  return (
    <Switch
      aria-label={env.t(column.label)}
      checked={checked}
      disabled={pending !== null || env.readOnly === true}
      onChange={async (_, d) => {
        setPending(d.checked);
        try {
          await column.toggle!(row, d.checked);
          await env.onSaved();
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
export function renderCell<T>(column: Column<T>, row: T, env: CellEnv): ReactNode {
  const { t, classes } = env;
  if (column.toggle) return <ToggleSwitch column={column} row={row} env={env} />;

  const text = column.text(row);
  let body: ReactNode;
  if (column.render) body = column.render(row);
  else if (column.kind === 'boolean') {
    const v = column.value(row);
    body =
      v === null || v === undefined ? (
        EMPTY_TEXT
      ) : v ? (
        <CheckmarkCircle16Filled className={classes.yes} aria-label={t('Yes')} />
      ) : (
        <DismissCircle16Filled className={classes.no} aria-label={t('No')} />
      );
  } else {
    body = (
      <span className={classes.text} title={text}>
        {text === '' ? EMPTY_TEXT : column.kind === 'enum' ? t(text) : text}
      </span>
    );
  }
  const edit = column.edit && !env.readOnly;
  if (!column.copyable && !edit) return body;
  return (
    <span className={classes.cell}>
      {body}
      {column.copyable && text !== '' ? (
        <IconButton
          label={t('Copy')}
          icon={<Copy16Regular />}
          className={classes.iconButton}
          onClick={() => void copyText(text, t)}
        />
      ) : null}
      {edit ? <EditPopover column={column} row={row} env={env} /> : null}
    </span>
  );
}
