import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Divider,
  Field,
  Input,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { Site } from '@shared/schemas/sites';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { AccountEditor } from './AccountEditor';
import { checkNewSite, emptyNewSite, hasScheme, type NewSiteForm } from './siteForm';
import { createSite, refreshSiteLists } from './sitesApi';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.4fr)',
    alignItems: 'start',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 900px)': { gridTemplateColumns: '1fr' },
  },
  prefix: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightSemibold },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  sectionHead: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalS },
  sectionHint: { color: tokens.colorNeutralForeground3 },
});

export interface NewSiteDialogProps {
  open: boolean;
  onClose(): void;
  onCreated?(site: Site): void;
}

/** Persistent (60vw): only Confirm or Cancel close it, so a stray click does not lose typed accounts. */
export function NewSiteDialog({ open, ...props }: NewSiteDialogProps): ReactNode {
  return open ? <NewSiteSurface {...props} /> : null;
}

function NewSiteSurface({ onClose, onCreated }: Omit<NewSiteDialogProps, 'open'>): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  // The page opens and closes this dialog (it is mounted only while open), so the hook's own
  // open flag is not used. A refused site keeps the dialog open: 'Add site failed' is shown with
  // the reason, and the server's field messages land on their fields.
  const { form, change, errors, busy, submit } = useFormDialog({
    initial: emptyNewSite,
    check: checkNewSite,
    save: createSite,
    onDone: async (site: Site) => {
      await refreshSiteLists(client);
      onCreated?.(site);
      onClose();
    },
  });
  const message = (path: keyof NewSiteForm) => (errors[path] ? t(errors[path]) : undefined);

  return (
    // Persistent: outside clicks and Escape are ignored (modalType alert has no light dismiss).
    <Dialog open modalType="alert">
      <DialogSurface style={dialogSurfaceStyle('60vw')} aria-label={t('New Site')}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('New Site')}</DialogTitle>
            <DialogContent className={styles.form}>
              <div className={styles.row}>
                <Field label={t('Site Name')} required validationMessage={message('name')}>
                  <Input autoFocus value={form.name} onChange={(_, d) => change('name', d.value)} />
                </Field>
                <Field
                  label={t('Site URL')}
                  required
                  validationMessage={message('url')}
                  hint={t('Without a scheme, https:// is used.')}
                >
                  <Input
                    value={form.url}
                    placeholder="example.com"
                    contentBefore={hasScheme(form.url) ? undefined : <span className={styles.prefix}>HTTPS://</span>}
                    onChange={(_, d) => change('url', d.value)}
                  />
                </Field>
              </div>
              <Divider />
              <div className={styles.section}>
                <div className={styles.sectionHead}>
                  <Text weight="semibold">{t('Accounts')}</Text>
                  <Text size={200} className={styles.sectionHint}>
                    {t('The logins the bot uses on this site.')}
                  </Text>
                </div>
                <AccountEditor
                  rows={form.accounts}
                  onRows={(accounts) => change('accounts', accounts)}
                  errors={errors}
                />
              </div>
            </DialogContent>
            <FormDialogActions busy={busy} onCancel={onClose} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
