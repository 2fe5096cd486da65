import {
  Button,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular, KeyMultipleRegular } from '@fluentui/react-icons';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { PasskeySummary } from '@shared/schemas/auth';
import { PasskeyRegistrationOptionsBody, RenamePasskeyBody } from '@shared/schemas/passkeys';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { useNavigate } from 'react-router-dom';
import { queryKeys } from '@/api/queryKeys';
import { clearAuth } from '@/app/auth';
import { formatDateTime } from '@/app/format';
import { Panel } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { toast } from '@/app/toast';
import { ConfirmDialog, FormDialog } from '@/components/dialog';
import { checkWith } from '@/components/dialog/checkWith';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { t as translate, useT } from '@/i18n';
import { CurrentPasswordField } from './CurrentPasswordField';
import {
  PasskeyBrowserError,
  passkeyPlace,
  passkeysQuery,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from './passkeyApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, justifyContent: 'space-between' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, justifyContent: 'flex-end' },
});

/** What the name dialog does with the name: add a new passkey, or rename one. */
type NameDialogMode = { kind: 'add' } | { kind: 'rename'; passkey: PasskeySummary };

/** Adding asks for the current password too (the options' body), renaming only for the name. */
const AddPasskeyForm = RenamePasskeyBody.extend(PasskeyRegistrationOptionsBody.shape);
type PasskeyForm = { name: string; password: string };

/** The name form of both: the same rules as the server's (shared/schemas/passkeys.ts). */
function PasskeyNameDialog({
  mode,
  trigger,
  onDone,
}: {
  mode: NameDialogMode;
  trigger: ReactElement;
  onDone: () => unknown;
}): ReactNode {
  const t = useT();
  const schema: z.ZodType<{ name: string; password?: string }> =
    mode.kind === 'add' ? AddPasskeyForm : RenamePasskeyBody;
  const dialog = useFormDialog({
    initial: (): PasskeyForm => ({ name: mode.kind === 'rename' ? mode.passkey.name : '', password: '' }),
    check: (form: PasskeyForm) => checkWith<PasskeyForm, typeof schema>(schema, form),
    save: async ({ name, password }) => {
      if (mode.kind === 'rename') return renamePasskey(mode.passkey.id, name);
      try {
        return await registerPasskey(name, password ?? '');
      } catch (error) {
        // The browser's refusal is no API answer, so the request layer has shown nothing yet.
        if (error instanceof PasskeyBrowserError)
          toast.error(translate('Could not add the passkey.'), t(error.message));
        throw error;
      }
    },
    onDone,
  });
  return (
    <FormDialog
      state={dialog}
      trigger={trigger}
      title={mode.kind === 'add' ? t('Add a passkey') : t('Rename passkey')}
      surfaceStyle={{ width: '440px', maxWidth: '96vw' }}
    >
      {mode.kind === 'add' ? (
        <Text>{t('Name it after the device or key that holds it; your browser then asks you to confirm.')}</Text>
      ) : null}
      <Field label={t('Name')} required validationMessage={dialog.errors.name ? t(dialog.errors.name) : undefined}>
        <Input
          name="passkey-name"
          value={dialog.form.name}
          maxLength={64}
          onChange={(_, d) => dialog.change('name', d.value)}
        />
      </Field>
      {mode.kind === 'add' ? (
        <CurrentPasswordField
          value={dialog.form.password}
          error={dialog.errors.password}
          onChange={(value) => dialog.change('password', value)}
        />
      ) : null}
    </FormDialog>
  );
}

function RemovePasskeyButton({ passkey }: { passkey: PasskeySummary }): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = async () => {
    setOpen(false);
    try {
      await removePasskey(passkey.id);
      // Removing a factor ends every session, this one too.
      clearAuth();
      navigate(pathOf('login'), { replace: true });
    } catch {
      // The failure tip has been shown.
    }
  };
  return (
    <>
      <Tooltip content={t('Remove')} relationship="label">
        <Button size="small" appearance="subtle" icon={<DeleteRegular />} onClick={() => setOpen(true)} />
      </Tooltip>
      <ConfirmDialog
        open={open}
        message={t('Remove the passkey {name}? It can no longer sign you in, and you will be signed out everywhere.', {
          name: passkey.name,
        })}
        confirmLabel="Remove"
        onConfirm={() => void remove()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

/**
 * Settings → Security: the user's passkeys, each with its name, when it was added and last used;
 * add one (named, then the browser's own dialog), rename or remove it. A passkey signs in alone
 * (the device's lock is the second factor) or after the password.
 */
export function PasskeysPanel(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const passkeys = useQuery(passkeysQuery);
  const place = passkeyPlace();
  const supported = browserSupportsWebAuthn();
  // The factors' summary (the security page's other panels) lists passkeys too.
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.all('passkeys') }),
      client.invalidateQueries({ queryKey: queryKeys.all('factors') }),
    ]);
  const list = passkeys.data ?? [];

  return (
    <Panel>
      <section className={styles.root} aria-label={t('Passkeys')}>
        <div className={styles.head}>
          <Text as="h2" size={500} weight="semibold" style={{ margin: 0 }}>
            {t('Passkeys')}
          </Text>
          <PasskeyNameDialog
            mode={{ kind: 'add' }}
            onDone={refresh}
            trigger={
              <Button appearance="primary" icon={<AddRegular />} disabled={place.kind !== 'here' || !supported}>
                {t('Add a passkey')}
              </Button>
            }
          />
        </div>
        <Text className={styles.muted}>
          {t("Sign in with your device's screen lock or a security key: alone, with no password, or after it.")}
        </Text>
        {place.kind === 'elsewhere' ? (
          <MessageBar intent="info">
            <MessageBarBody>
              {t('Passkeys need a name, not an IP address: open the console at')}{' '}
              <Link href={place.url}>{place.url}</Link>
            </MessageBarBody>
          </MessageBar>
        ) : place.kind === 'none' ? (
          <MessageBar intent="warning">
            <MessageBarBody>{t("Passkeys work only at the console's domain name.")}</MessageBarBody>
          </MessageBar>
        ) : !supported ? (
          <MessageBar intent="warning">
            <MessageBarBody>{t('This browser does not support passkeys.')}</MessageBarBody>
          </MessageBar>
        ) : null}
        {list.length ? (
          <Table size="small" aria-label={t('Passkeys')}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('Name')}</TableHeaderCell>
                <TableHeaderCell>{t('Added')}</TableHeaderCell>
                <TableHeaderCell>{t('Last used')}</TableHeaderCell>
                <TableHeaderCell />
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((p) => (
                <TableRow key={p.id}>
                  <TableCell>
                    <KeyMultipleRegular style={{ verticalAlign: 'middle', marginRight: 6 }} />
                    {p.name}
                  </TableCell>
                  <TableCell>{formatDateTime(p.created_at)}</TableCell>
                  <TableCell>{p.last_used_at ? formatDateTime(p.last_used_at) : t('Never')}</TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      <PasskeyNameDialog
                        mode={{ kind: 'rename', passkey: p }}
                        onDone={refresh}
                        trigger={
                          <Tooltip content={t('Rename')} relationship="label">
                            <Button size="small" appearance="subtle" icon={<EditRegular />} />
                          </Tooltip>
                        }
                      />
                      <RemovePasskeyButton passkey={p} />
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : passkeys.isSuccess ? (
          <Text className={styles.muted}>{t('No passkeys yet.')}</Text>
        ) : null}
      </section>
    </Panel>
  );
}
