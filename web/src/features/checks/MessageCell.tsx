import { Button, makeStyles } from '@fluentui/react-components';
import { Info16Regular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { useT } from '@/i18n';
import { InfoAlertDialog } from './InfoAlertDialog';

const useStyles = makeStyles({
  cell: { display: 'inline-flex', alignItems: 'center', gap: '2px', maxWidth: '100%', minWidth: 0 },
  text: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '220px' },
});

/** A long message cut to one line, with a button that shows all of it (the message info popup). */
export function MessageCell({ title, text }: { title: string; text: string | null | undefined }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  if (!text) return EMPTY_TEXT;
  return (
    <span className={styles.cell}>
      <span className={styles.text} title={text}>
        {text}
      </span>
      <Button
        size="small"
        appearance="transparent"
        icon={<Info16Regular />}
        aria-label={t('Show message')}
        title={t('Show message')}
        onClick={() => setOpen(true)}
      />
      {open ? <InfoAlertDialog open title={title} text={text} preformatted onClose={() => setOpen(false)} /> : null}
    </span>
  );
}
