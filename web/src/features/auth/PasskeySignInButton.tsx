import { Link, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { KeyMultipleRegular } from '@fluentui/react-icons';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { LoginAnswer, SecondFactorMethod } from '@shared/schemas/auth';
import { type ReactNode, useState } from 'react';
import { isApiError } from '@/api/ApiError';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { PasskeyBrowserError, passkeyPlace, signInWithPasskey } from './passkeyApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/**
 * The login page's passkey button. Without a ticket it is the first step, "Sign in with a passkey":
 * no username, the browser offers the passkeys it holds for this site, and a verified one signs in
 * completely. With the ticket of a password step it is that step's second factor. The answer goes to
 * `onAnswer` as `POST /login` answers; a refusal is shown here. Where this address cannot have
 * passkeys (an IP address) it says where they work instead.
 */
export function PasskeySignInButton({
  ticket,
  onAnswer,
  onError,
  appearance = 'secondary',
}: {
  ticket?: string;
  onAnswer: (answer: LoginAnswer) => unknown;
  /** Where the page shows failures (an English text); shown under the button when absent. */
  onError?: (text: string) => void;
  appearance?: 'primary' | 'secondary';
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const place = passkeyPlace();
  if (!browserSupportsWebAuthn() || place.kind === 'none') return null;
  if (place.kind === 'elsewhere')
    return (
      <MessageBar intent="info">
        <MessageBarBody>
          {t('To sign in with a passkey, open the console at')} <Link href={place.url}>{place.url}</Link>
        </MessageBarBody>
      </MessageBar>
    );

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await onAnswer(await signInWithPasskey(ticket));
    } catch (err) {
      const text =
        err instanceof PasskeyBrowserError
          ? err.message
          : isApiError(err)
            ? err.msg
            : 'This browser could not use a passkey here.';
      if (onError) onError(text);
      else setError(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.root}>
      {error ? (
        <MessageBar intent="error">
          <MessageBarBody>{t(error)}</MessageBarBody>
        </MessageBar>
      ) : null}
      <BusyButton
        type="button"
        size="large"
        appearance={appearance}
        busy={busy}
        icon={<KeyMultipleRegular />}
        onClick={() => void start()}
      >
        {ticket ? t('Use a passkey') : t('Sign in with a passkey')}
      </BusyButton>
    </div>
  );
}

/** What the login page hands each sign-in method (signInMethods.tsx; not imported: that list imports these). */
interface MethodProps {
  onAnswer(answer: LoginAnswer): void;
  onError(text: string): void;
}

/** The login page's first step: a passkey alone. */
export function PasskeyFirstStep(props: MethodProps): ReactNode {
  return <PasskeySignInButton onAnswer={props.onAnswer} onError={props.onError} />;
}

/** The second step after the password, for a user who has a passkey. */
export function PasskeySecondStep(
  props: MethodProps & { ticket: string; methods: readonly SecondFactorMethod[] },
): ReactNode {
  if (!props.methods.includes('passkey')) return null;
  return <PasskeySignInButton ticket={props.ticket} onAnswer={props.onAnswer} onError={props.onError} />;
}
