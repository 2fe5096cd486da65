import { Button } from '@fluentui/react-components';
import { PhoneKeyRegular } from '@fluentui/react-icons';
import type { User } from '@shared/schemas/users';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { useT } from '@/i18n';
import { resetUserFactors } from './usersApi';

/** The 'Reset second factor' row action: a user who lost their phone signs in (and enrols) again. */
export function ResetFactorsButton({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" appearance="subtle" icon={<PhoneKeyRegular />} onClick={() => setOpen(true)}>
        {t('Reset second factor')}
      </Button>
      <ConfirmDialog
        open={open}
        confirmLabel="Reset second factor"
        message={t(
          "{username}'s authenticator app, recovery codes and passkeys are removed and their sessions end. They sign in with the password again, and set up a second factor if one is required.",
          { username: user.username },
        )}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          void resetUserFactors(user).then(onDone, () => undefined);
        }}
      />
    </>
  );
}
