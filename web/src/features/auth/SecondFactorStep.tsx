import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import type { LoginAnswer, SecondFactorMethod } from '@shared/schemas/auth';
import { type FormEvent, type ReactNode, useState } from 'react';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { CodeInput } from './CodeInput';
import { codeErrorText, ticketExpired } from './codeErrors';
import { secondFactorSignIn } from './factorsApi';
import { SECOND_STEP_METHODS } from './signInMethods';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  links: { display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap' },
});

/**
 * The login's second step: a code from the authenticator app, or a recovery code, for the ticket the
 * password answered; other methods (a passkey) come from SECOND_STEP_METHODS.
 */
export function SecondFactorStep({
  ticket,
  methods,
  onAnswer,
  onError,
  onRestart,
}: {
  ticket: string;
  methods: readonly SecondFactorMethod[];
  onAnswer(answer: LoginAnswer): void;
  onError(text: string | null): void;
  /** Back to the password (the ticket expired, or the user asks). */
  onRestart(): void;
}): ReactNode {
  const styles = useStyles();
  const t = useT();
  const hasTotp = methods.includes('totp');
  const [recovery, setRecovery] = useState(!hasTotp && methods.includes('recovery'));
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const typed = methods.includes('recovery') || hasTotp;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = recovery ? code.trim() : code.replace(/\s+/g, '');
    if (!value) return setCodeError('Please input the code');
    if (!recovery && !/^\d{6}$/.test(value)) return setCodeError('The code has 6 digits');
    setBusy(true);
    setCodeError(undefined);
    onError(null);
    try {
      onAnswer(await secondFactorSignIn({ ticket, method: recovery ? 'recovery' : 'totp', code: value }));
    } catch (err) {
      if (ticketExpired(err)) {
        onRestart();
        onError(codeErrorText(err));
      } else setCodeError(codeErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.form}>
      <Text>
        {recovery
          ? t('Enter one of your recovery codes. Each works once.')
          : typed
            ? t('Enter the 6-digit code your authenticator app shows for Patrol.')
            : t('Use your passkey to finish signing in.')}
      </Text>
      {typed ? (
        <form className={styles.form} onSubmit={submit} noValidate>
          <CodeInput key={String(recovery)} value={code} onChange={setCode} recovery={recovery} error={codeError} />
          <BusyButton type="submit" size="large" busy={busy}>
            {t('Verify')}
          </BusyButton>
        </form>
      ) : null}
      {SECOND_STEP_METHODS.map((Method, i) => (
        <Method key={i} ticket={ticket} methods={methods} onAnswer={onAnswer} onError={(text) => onError(text)} />
      ))}
      <div className={styles.links}>
        <Button appearance="transparent" size="small" onClick={onRestart}>
          {t('Back')}
        </Button>
        {hasTotp && methods.includes('recovery') ? (
          <Button
            appearance="transparent"
            size="small"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setCodeError(undefined);
            }}
          >
            {recovery ? t('Use the authenticator app') : t('Use a recovery code')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
