import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import { PhoneKeyRegular } from '@fluentui/react-icons';
import { CurrentPasswordBody, type TotpEnrolment } from '@shared/schemas/auth';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearAuth } from '@/app/auth';
import { PageHeader, Panel } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { FormDialog } from '@/components/dialog';
import { checkWith } from '@/components/dialog/checkWith';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { CodeInput } from './CodeInput';
import { codeErrorText } from './codeErrors';
import { CurrentPasswordField } from './CurrentPasswordField';
import { factorsQuery, regenerateRecoveryCodes, removeTotp, startTotp } from './factorsApi';
import { PasskeysPanel } from './PasskeysPanel';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '560px' },
});

/** Asks for a current code before an action that needs the app at hand (removal, new recovery codes). */
function CodeDialog({
  title,
  message,
  confirmLabel,
  onCode,
  onClose,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  /** Throws the API's error for a refused code. */
  onCode(code: string): Promise<void>;
  onClose(): void;
}): ReactNode {
  const t = useT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) return setError('The code has 6 digits');
    setBusy(true);
    try {
      await onCode(code.replace(/\s+/g, ''));
    } catch (err) {
      setError(codeErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: 420 }}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t(title)}</DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
              <Text>{t(message)}</Text>
              <CodeInput value={code} onChange={setCode} error={error} />
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{t('Cancel')}</Button>
              <Button type="submit" appearance="primary" disabled={busy}>
                {t(confirmLabel)}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * "Set up the authenticator app": the current password first (a session alone may be borrowed),
 * which starts the set-up; a wrong one is marked on its field and the dialog stays open.
 */
function StartTotpDialog({ onStarted }: { onStarted(started: TotpEnrolment): void }): ReactNode {
  const t = useT();
  const dialog = useFormDialog({
    initial: () => ({ password: '' }),
    check: (form: CurrentPasswordBody) =>
      checkWith<CurrentPasswordBody, typeof CurrentPasswordBody>(CurrentPasswordBody, form),
    save: (body) => startTotp(body),
    onDone: onStarted,
  });
  return (
    <FormDialog
      state={dialog}
      title={t('Set up the authenticator app')}
      surfaceStyle={{ width: '440px', maxWidth: '96vw' }}
      trigger={<Button appearance="primary">{t('Set up the authenticator app')}</Button>}
    >
      <CurrentPasswordField
        value={dialog.form.password}
        error={dialog.errors.password}
        onChange={(value) => dialog.change('password', value)}
      />
    </FormDialog>
  );
}

/** The authenticator app: set up (with recovery codes shown once), remove, new recovery codes. */
function TotpPanel(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data } = useQuery(factorsQuery);
  const [started, setStarted] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'remove' | 'regenerate' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: factorsQuery.queryKey });

  const body = codes ? (
    <RecoveryCodes codes={codes}>
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => setCodes(null)}>
          {t('Done')}
        </Button>
      </div>
    </RecoveryCodes>
  ) : started ? (
    <TotpSetup
      started={started}
      onConfirmed={(result) => {
        setStarted(null);
        setCodes(result.recovery_codes);
        void refresh();
      }}
    />
  ) : data?.totp ? (
    <>
      <Text>{t('Recovery codes left: {n}', { n: String(data.recovery_codes_left) })}</Text>
      <div className={styles.row}>
        <Button onClick={() => setDialog('regenerate')}>{t('New recovery codes')}</Button>
        <Button onClick={() => setDialog('remove')}>{t('Remove the app')}</Button>
      </div>
    </>
  ) : (
    <>
      <Text>{t('Sign in with a code from an app on your phone as well as your password.')}</Text>
      <div className={styles.row}>
        <StartTotpDialog onStarted={setStarted} />
      </div>
    </>
  );

  return (
    <Panel>
      <section className={styles.section} aria-label={t('Authenticator app')}>
        <div className={styles.title}>
          <PhoneKeyRegular fontSize={20} />
          <Text as="h2" size={400} weight="semibold" style={{ margin: 0 }}>
            {t('Authenticator app')}
          </Text>
          {data ? (
            <Badge appearance="tint" color={data.totp ? 'success' : 'subtle'}>
              {data.totp ? t('On') : t('Off')}
            </Badge>
          ) : null}
        </div>
        {body}
      </section>
      {dialog === 'remove' ? (
        <CodeDialog
          title="Remove the app"
          message="Enter a current code to remove the app. You will be signed out everywhere."
          confirmLabel="Remove"
          onClose={() => setDialog(null)}
          onCode={async (code) => {
            await removeTotp(code);
            // Removing a factor ends every session, this one too.
            clearAuth();
            navigate(pathOf('login'), { replace: true });
          }}
        />
      ) : dialog === 'regenerate' ? (
        <CodeDialog
          title="New recovery codes"
          message="Enter a current code. The recovery codes you have now stop working."
          confirmLabel="Confirm"
          onClose={() => setDialog(null)}
          onCode={async (code) => {
            const result = await regenerateRecoveryCodes(code);
            setDialog(null);
            setCodes(result.recovery_codes);
            void refresh();
          }}
        />
      ) : null}
    </Panel>
  );
}

/** /setting/security: the user's own second factors (docs/sign-in.md). */
export default function SecurityPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <>
      <PageHeader title={t('Security')} subtitle={t('Two-step sign-in: a code or a passkey after the password.')} />
      <div className={styles.page}>
        <TotpPanel />
        <PasskeysPanel />
      </div>
    </>
  );
}
