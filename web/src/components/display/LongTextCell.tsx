import { Button, makeStyles } from '@fluentui/react-components';
import { Info16Regular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { InfoAlertDialog } from '@/components/dialog/InfoAlertDialog';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  cell: { display: 'inline-flex', alignItems: 'center', gap: '2px', maxWidth: '100%', minWidth: 0 },
  text: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '220px' },
});

/**
 * A result, description or message cut to one line, with a button opening the information alert
 * that shows all of it (with Copy). `preformatted` keeps JSON indentation and line breaks.
 */
export function LongTextCell({
  title,
  text,
  preformatted,
  buttonLabel,
}: {
  title: string;
  text: string | null | undefined;
  preformatted?: boolean;
  /** The button's name; 'View <title>' by default. */
  buttonLabel?: string;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  if (!text) return EMPTY_TEXT;
  // The cell shows JSON on one line; the dialog shows it indented.
  const line = preformatted ? text.replace(/\s*\n\s*/g, ' ') : text;
  return (
    <span className={styles.cell}>
      <span className={styles.text} title={line}>
        {line}
      </span>
      <Button
        size="small"
        appearance="transparent"
        icon={<Info16Regular />}
        aria-label={buttonLabel ? t(buttonLabel) : `${t('View')} ${title}`}
        title={t(buttonLabel ?? 'View')}
        onClick={() => setOpen(true)}
      />
      {open ? (
        <InfoAlertDialog open title={title} text={text} preformatted={preformatted} onClose={() => setOpen(false)} />
      ) : null}
    </span>
  );
}
