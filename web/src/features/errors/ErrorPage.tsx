import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { HomeRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    minHeight: '60vh',
    textAlign: 'center',
    padding: tokens.spacingHorizontalXXL,
  },
  code: {
    fontSize: '96px',
    lineHeight: '96px',
    fontWeight: tokens.fontWeightBold,
    color: tokens.colorBrandForeground1,
    letterSpacing: '-2px',
  },
  text: { color: tokens.colorNeutralForeground3, maxWidth: '420px' },
});

export function ErrorPage({ code, title, text }: { code: number; title: string; text: string }): ReactNode {
  const styles = useStyles();
  const t = useT();
  const navigate = useNavigate();
  return (
    <section className={styles.root} aria-labelledby="error-title">
      <div className={styles.code} aria-hidden>
        {code}
      </div>
      <Text as="h1" id="error-title" size={600} weight="semibold">
        {t(title)}
      </Text>
      <Text className={styles.text}>{t(text)}</Text>
      <Button appearance="primary" icon={<HomeRegular />} onClick={() => navigate(pathOf('home'))}>
        {t('Back to home')}
      </Button>
    </section>
  );
}
