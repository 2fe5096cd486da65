import { MessageBar, MessageBarBody, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import type { TotpConfirmed, TotpEnrolment } from '@shared/schemas/auth';
import QRCode from 'qrcode';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { CodeInput } from './CodeInput';
import { codeErrorText, ticketExpired } from './codeErrors';
import { confirmTotp, startTotp } from './factorsApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  qr: {
    alignSelf: 'center',
    width: '184px',
    height: '184px',
    padding: tokens.spacingVerticalS,
    backgroundColor: '#fff',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  secret: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase300,
    letterSpacing: '0.05em',
    wordBreak: 'break-all',
    textAlign: 'center',
    userSelect: 'all',
  },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** Groups a base32 secret by four letters, as apps show a typed key. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Sets up an authenticator app: a new secret as a QR code and as text to type, then the first code
 * confirms it and the server answers the recovery codes (and, with an enrolment ticket, the token).
 */
export function TotpSetup({
  ticket,
  started,
  onConfirmed,
  onExpired,
}: (
  | {
      /** The enrolment ticket at sign-in: the set-up starts with it. */
      ticket: string;
      started?: never;
    }
  | {
      ticket?: never;
      /** On the security page: the secret its password dialog started with the session. */
      started: TotpEnrolment;
    }
) & {
  onConfirmed(result: TotpConfirmed): void;
  /** The ticket ran out: back to the password. */
  onExpired?(): void;
}): ReactNode {
  const styles = useStyles();
  const t = useT();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Read when the answer comes: a new callback each render must not start a new secret.
  const expired = useRef(onExpired);
  expired.current = onExpired;

  useEffect(() => {
    let live = true;
    (started ? Promise.resolve(started) : startTotp({ ticket: ticket as string })).then(
      async (started) => {
        const image = await QRCode.toDataURL(started.otpauth_url, { margin: 0, width: 168 });
        if (!live) return;
        setEnrolment(started);
        setQr(image);
      },
      (err) => {
        if (!live) return;
        if (ticketExpired(err)) expired.current?.();
        setError(codeErrorText(err));
      },
    );
    return () => {
      live = false;
    };
  }, [ticket, started]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) {
      setError('The code has 6 digits');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onConfirmed(await confirmTotp(code.replace(/\s+/g, ''), ticket));
    } catch (err) {
      if (ticketExpired(err)) onExpired?.();
      setError(codeErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (!enrolment || !qr) {
    return error ? (
      <MessageBar intent="error">
        <MessageBarBody>{t(error)}</MessageBarBody>
      </MessageBar>
    ) : (
      <Spinner size="small" />
    );
  }
  return (
    <form className={styles.root} onSubmit={submit} noValidate>
      <Text>
        {t('Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).')}
      </Text>
      <img className={styles.qr} src={qr} alt={t('QR code for the authenticator app')} />
      <Text size={200} className={styles.hint}>
        {t('Or type this key into the app:')}
      </Text>
      <Text className={styles.secret} data-testid="totp-secret">
        {grouped(enrolment.secret)}
      </Text>
      <CodeInput value={code} onChange={setCode} error={error ?? undefined} autoFocus={false} />
      <BusyButton type="submit" busy={busy}>
        {t('Confirm')}
      </BusyButton>
    </form>
  );
}
