// "Sign in with <name>" on the login page when single sign-on is set up (GET /auth/sso), one of the
// page's other ways of signing in (signInMethods.tsx). The button is a plain navigation: the server
// sends the browser on to the provider, which sends it back to the login page with a one-time code
// or an error, which this component takes up (useSsoReturn) whether or not the button shows.
import { Button, Divider, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { PersonKeyRegular } from '@fluentui/react-icons';
import type { LoginAnswer } from '@shared/schemas/auth';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { SSO_START_URL, ssoStatusQuery } from './ssoApi';
import { useSsoReturn } from './useSsoReturn';

const useStyles = makeStyles({
  block: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  or: { color: tokens.colorNeutralForeground3 },
});

/** The login page's SignInMethodProps (signInMethods.tsx imports this component, so not its type). */
export interface SsoButtonProps {
  onAnswer(answer: LoginAnswer): void;
  onError(text: string): void;
}

export function SsoButton({ onAnswer, onError }: SsoButtonProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const status = useQuery(ssoStatusQuery);
  const [leaving, setLeaving] = useState(false);
  const redeeming = useSsoReturn(onAnswer, onError);
  if (redeeming) return <Spinner size="small" label={t('Signing in…')} />;
  if (!status.data?.enabled) return null;
  return (
    <div className={styles.block}>
      <Divider className={styles.or}>{t('or')}</Divider>
      <Button
        as="a"
        href={SSO_START_URL}
        size="large"
        icon={<PersonKeyRegular />}
        disabled={leaving}
        onClick={(e) => {
          // Navigates itself: the re-render that disables the link would drop its href first.
          e.preventDefault();
          setLeaving(true);
          window.location.assign(SSO_START_URL);
        }}
      >
        {t('Sign in with {name}', { name: status.data.display_name })}
      </Button>
    </div>
  );
}
