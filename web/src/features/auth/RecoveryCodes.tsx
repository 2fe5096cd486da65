import { Button, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, CopyRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  codes: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, max-content)',
    justifyContent: 'center',
    columnGap: tokens.spacingHorizontalXXL,
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalM,
    margin: 0,
    listStyle: 'none',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase400,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** The ten recovery codes, shown this once (the server keeps only their digests). */
export function RecoveryCodes({ codes, children }: { codes: readonly string[]; children?: ReactNode }): ReactNode {
  const styles = useStyles();
  const t = useT();
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'patrol-recovery-codes.txt' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className={styles.root}>
      <MessageBar intent="warning">
        <MessageBarBody>
          {t('Keep these recovery codes somewhere safe. Each signs in once without the app; they are not shown again.')}
        </MessageBarBody>
      </MessageBar>
      <ul className={styles.codes} aria-label={t('Recovery codes')}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className={styles.buttons}>
        <Button icon={<CopyRegular />} onClick={() => void navigator.clipboard?.writeText(text)}>
          {t('Copy')}
        </Button>
        <Button icon={<ArrowDownloadRegular />} onClick={download}>
          {t('Download')}
        </Button>
      </div>
      {children}
    </div>
  );
}
