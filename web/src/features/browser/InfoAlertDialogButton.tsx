import { Button } from '@fluentui/react-components';
import { Eye16Regular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { InfoAlertDialog } from '@/components/dialog/InfoAlertDialog';
import { useT } from '@/i18n';

/** A View button that shows a long text (a JSON result) in the information alert; '/' when there is none. */
export function InfoAlertDialogButton({
  title,
  text,
  preformatted,
}: {
  title: string;
  text: string;
  preformatted?: boolean;
}): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!text) return EMPTY_TEXT;
  return (
    <>
      <Button size="small" appearance="subtle" icon={<Eye16Regular />} onClick={() => setOpen(true)}>
        {t('View')}
      </Button>
      {open ? (
        <InfoAlertDialog open title={title} text={text} preformatted={preformatted} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
