import { useT } from '@/i18n';
import {
  Button,
  Caption1,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { type ReactElement, useState } from 'react';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
    gap: tokens.spacingVerticalXS,
    marginTop: tokens.spacingVerticalS,
  },
  tools: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  note: { color: tokens.colorNeutralForeground3, marginLeft: 'auto' },
});

export interface ChecklistItem {
  id: string;
  label: string;
}

interface ChecklistDialogProps {
  title: string;
  trigger: { icon: ReactElement; label: string };
  items: ChecklistItem[];
  checked: string[];
  /**
   * Without `onSave` every tick applies at once (column visibility). With it the ticks are a
   * draft until Save (search columns), and Reset returns the draft to `resetTo`.
   */
  onChange?(checked: string[]): void;
  onSave?(checked: string[]): void;
  resetTo?: string[];
}

/** Column-visibility and search-column dialogs: a grid of checkboxes with All and Reverse. */
export function ChecklistDialog({ title, trigger, items, checked, onChange, onSave, resetTo }: ChecklistDialogProps) {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<string[]>(checked);
  const current = onSave ? draft : checked;
  const update = (next: string[]) => (onSave ? setDraft(next) : onChange?.(next));
  const toggle = (id: string, on: boolean) =>
    update(items.map((i) => i.id).filter((i) => (i === id ? on : current.includes(i))));

  return (
    <Dialog
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open);
        if (d.open) setDraft(checked);
      }}
    >
      <DialogTrigger disableButtonEnhancement>
        <Tooltip content={t(trigger.label)} relationship="label">
          <Button appearance="subtle" icon={trigger.icon} />
        </Tooltip>
      </DialogTrigger>
      <DialogSurface style={{ maxWidth: 700 }}>
        <DialogBody>
          <DialogTitle>{t(title)}</DialogTitle>
          <DialogContent>
            <div className={styles.tools}>
              <Button size="small" onClick={() => update(items.map((i) => i.id))}>
                {t('All')}
              </Button>
              <Button
                size="small"
                onClick={() => update(items.filter((i) => !current.includes(i.id)).map((i) => i.id))}
              >
                {t('Reverse')}
              </Button>
              {onSave && resetTo ? (
                <Button size="small" onClick={() => setDraft(resetTo)}>
                  {t('Reset')}
                </Button>
              ) : null}
              {onSave ? <Caption1 className={styles.note}>{t('Save to take effect')}</Caption1> : null}
            </div>
            <div className={styles.list}>
              {items.map((item) => (
                <Checkbox
                  key={item.id}
                  label={t(item.label)}
                  checked={current.includes(item.id)}
                  onChange={(_, d) => toggle(item.id, d.checked === true)}
                />
              ))}
            </div>
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance={onSave ? 'secondary' : 'primary'}>{t(onSave ? 'Cancel' : 'Close')}</Button>
            </DialogTrigger>
            {onSave ? (
              <Button
                appearance="primary"
                onClick={() => {
                  onSave(draft);
                  setOpen(false);
                }}
              >
                {t('Save')}
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
