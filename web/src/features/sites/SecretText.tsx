import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Eye16Regular, EyeOff16Regular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, minWidth: 0 },
  text: {
    fontFamily: tokens.fontFamilyMonospace,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});

/** A password shown masked until the eye is clicked (shoulder surfing in an open office). */
export function SecretText({ value }: { value: string }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [shown, setShown] = useState(false);
  const label = t(shown ? 'Hide password' : 'Show password');
  return (
    <span className={styles.root}>
      <span className={styles.text}>{shown ? value : '••••••••'}</span>
      <Button
        size="small"
        appearance="transparent"
        icon={shown ? <EyeOff16Regular /> : <Eye16Regular />}
        aria-label={label}
        title={label}
        onClick={() => setShown(!shown)}
      />
    </span>
  );
}
