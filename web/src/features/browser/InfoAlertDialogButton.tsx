import { Eye16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { DialogButton } from '@/components/dialog';
import { InfoAlertDialog } from '@/components/dialog/InfoAlertDialog';

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
  if (!text) return EMPTY_TEXT;
  return (
    <DialogButton
      label="View"
      icon={<Eye16Regular />}
      dialog={(close) => <InfoAlertDialog open title={title} text={text} preformatted={preformatted} onClose={close} />}
    />
  );
}
