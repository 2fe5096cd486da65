// "Sign in with <name>" on the login page when single sign-on is set up (GET /auth/sso). The
// button is a plain navigation: the server sends the browser on to the provider, which sends it
// back to the login page with a one-time code (useSsoReturn) or an error.
import { Button, Divider, makeStyles, tokens } from '@fluentui/react-components';
import { PersonKeyRegular } from '@fluentui/react-icons';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { SSO_START_URL, ssoStatusQuery } from './ssoApi';

const useStyles = makeStyles({
  block: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  or: { color: tokens.colorNeutralForeground3 },
});

export function SsoButton(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const status = useQuery(ssoStatusQuery);
  const [leaving, setLeaving] = useState(false);
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
        onClick={() => setLeaving(true)}
      >
        {t('Sign in with {name}', { name: status.data.display_name })}
      </Button>
    </div>
  );
}
