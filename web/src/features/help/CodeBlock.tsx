import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Checkmark16Regular, Copy16Regular } from '@fluentui/react-icons';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  block: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
    overflowX: 'auto',
    whiteSpace: 'pre',
  },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

const COPIED_FOR_MS = 2000;

/**
 * A titled code block with a Copy button; `label` names it for assistive technology when the
 * title alone (a file name) would not. After a copy the button reads "Copied" for two seconds
 * and a polite live region says so, for screen readers too.
 */
export function CodeBlock({ title, code, label }: { title: string; code: string; label?: string }): ReactNode {
  const styles = useStyles();
  const t = useT();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      toast.error(t('copy failed'));
    }
  };

  return (
    <section className={styles.block} aria-label={label ?? title}>
      <div className={styles.head}>
        <Text weight="semibold">{title}</Text>
        <Button
          size="small"
          appearance="subtle"
          icon={copied ? <Checkmark16Regular /> : <Copy16Regular />}
          onClick={() => void copy()}
        >
          {copied ? t('Copied') : t('Copy')}
        </Button>
      </div>
      <pre className={styles.code}>
        <code>{code}</code>
      </pre>
      <span role="status" className={styles.hidden}>
        {copied ? t('Copied') : ''}
      </span>
    </section>
  );
}
