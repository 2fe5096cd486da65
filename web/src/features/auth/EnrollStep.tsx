import { Button, Text } from '@fluentui/react-components';
import type { LoginResult, TotpConfirmed } from '@shared/schemas/auth';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

/**
 * Enrolment right after the password, for a user the policy (`auth.second_factor`) covers who has
 * no second factor yet: set up the app, confirm a code, keep the recovery codes, then the console.
 */
export function EnrollStep({
  ticket,
  onSignedIn,
  onExpired,
}: {
  ticket: string;
  onSignedIn(result: LoginResult): void;
  onExpired(): void;
}): ReactNode {
  const t = useT();
  const [confirmed, setConfirmed] = useState<TotpConfirmed | null>(null);
  if (confirmed) {
    const { recovery_codes, ...login } = confirmed;
    return (
      <RecoveryCodes codes={recovery_codes}>
        <Button appearance="primary" size="large" onClick={() => onSignedIn(login as LoginResult)}>
          {t('Continue to the console')}
        </Button>
      </RecoveryCodes>
    );
  }
  return (
    <>
      <Text>{t('Your account needs a second factor. Set up an authenticator app to continue.')}</Text>
      <TotpSetup ticket={ticket} onConfirmed={setConfirmed} onExpired={onExpired} />
    </>
  );
}
