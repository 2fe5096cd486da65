import { Button, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Eye16Regular, EyeOff16Regular } from '@fluentui/react-icons';
import { type ReactNode, useEffect, useState } from 'react';
import { useCanWrite } from '@/app/auth';
import { CopyButton } from '@/components/table/CellContent';
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

/** What every masked secret shows: the same width whatever the secret, so its length does not leak. */
export const SECRET_MASK = '••••••••';

/** How long a revealed secret stays on screen before it is masked (and forgotten) again. */
export const REVEAL_SHOWN_MS = 30_000;

export interface SecretCellProps {
  /**
   * Fetches the one secret from the server's audited reveal call (e.g. GET /sites/accounts/{id}/pwd).
   * Lists never carry secrets, so there is nothing to show until this is called.
   */
  reveal(): Promise<string>;
  /** Accessible names of the button; default 'Show password' / 'Hide password'. */
  showLabel?: string;
  hideLabel?: string;
}

/**
 * A secret in a table cell or a detail view: a mask and an eye button. The eye asks the server
 * for the value each time (every reveal is rate limited and audited there), shows it for a while,
 * and hiding forgets it, so a value edited meanwhile is never shown stale.
 */
export function SecretCell({
  reveal,
  showLabel = 'Show password',
  hideLabel = 'Hide password',
}: SecretCellProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const allowed = useCanWrite();
  const [value, setValue] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (value === undefined) return;
    const timer = setTimeout(() => setValue(undefined), REVEAL_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [value]);

  // A viewer may not reveal secrets (the server answers 403): the mask alone, no eye.
  if (!allowed) return <span className={styles.text}>{SECRET_MASK}</span>;
  const shown = value !== undefined;
  const label = t(shown ? hideLabel : showLabel);
  const toggle = async () => {
    if (shown) {
      setValue(undefined);
      return;
    }
    setLoading(true);
    try {
      setValue(await reveal());
    } catch {
      // The request layer has shown why (429 included); the mask stays.
    } finally {
      setLoading(false);
    }
  };
  return (
    <span className={styles.root}>
      <span className={styles.text}>{shown ? value : SECRET_MASK}</span>
      <Button
        size="small"
        appearance="transparent"
        icon={loading ? <Spinner size="extra-tiny" /> : shown ? <EyeOff16Regular /> : <Eye16Regular />}
        aria-label={label}
        title={label}
        disabled={loading}
        onClick={() => void toggle()}
      />
      {/* A revealed secret is mostly wanted elsewhere, and a long one shows clipped. */}
      {value !== undefined ? <CopyButton text={value} /> : null}
    </span>
  );
}
