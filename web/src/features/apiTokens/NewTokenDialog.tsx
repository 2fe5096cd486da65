import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Select,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, CopyRegular } from '@fluentui/react-icons';
import { ApiTokenScope, type ApiTokenScopeValue, type NewApiToken } from '@shared/schemas/apiTokens';
import { type ReactNode, useState } from 'react';
import { FormDialog } from '@/components/dialog';
import { OkDialog } from '@/components/dialog/OkDialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { createApiToken } from './apiTokensApi';
import { checkTokenForm, emptyTokenForm, type NewTokenForm, TOKEN_LIFETIMES } from './tokenForm';

const useStyles = makeStyles({
  token: {
    fontFamily: tokens.fontFamilyMonospace,
    wordBreak: 'break-all',
    padding: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    marginTop: tokens.spacingVerticalM,
  },
});

/** What each scope may do, under its radio. */
const SCOPE_HINTS: Record<ApiTokenScopeValue, string> = {
  read: 'Every page a viewer may read.',
  operate: 'What an operator may do, but never reveal a password or key.',
  metrics: 'Only GET /api/v1/metrics, for Prometheus.',
};

/** The token, shown this once (the server keeps only its digest), with a copy button. */
function TokenShownOnce({ made, onClose }: { made: NewApiToken; onClose: () => void }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <OkDialog
      title={t('Token {name}', { name: made.name })}
      onClose={onClose}
      extraActions={
        <Button icon={<CopyRegular />} onClick={() => void navigator.clipboard?.writeText(made.token)}>
          {t('Copy')}
        </Button>
      }
    >
      <MessageBar intent="warning">
        <MessageBarBody>{t('Copy the token now: it is not shown again.')}</MessageBarBody>
      </MessageBar>
      <div className={styles.token} data-testid="new-token">
        {made.token}
      </div>
    </OkDialog>
  );
}

/** The New token table action: the form, then the token once. */
export function NewTokenDialog({ onCreated }: { onCreated: () => unknown }): ReactNode {
  const t = useT();
  const [made, setMade] = useState<NewApiToken | undefined>();
  const dialog = useFormDialog<NewTokenForm, Parameters<typeof createApiToken>[0], NewApiToken>({
    initial: emptyTokenForm,
    check: (form) => checkTokenForm(form),
    save: createApiToken,
    onDone: (saved) => {
      setMade(saved);
      return onCreated();
    },
  });
  const { form, change, errors } = dialog;
  return (
    <>
      <FormDialog
        state={dialog}
        modalType="alert"
        title={t('New token')}
        trigger={
          <Button appearance="primary" icon={<AddRegular />}>
            {t('New token')}
          </Button>
        }
      >
        <Field label={t('Name')} required validationMessage={errors.name ? t(errors.name) : undefined}>
          <Input name="name" autoComplete="off" value={form.name} onChange={(_, d) => change('name', d.value)} />
        </Field>
        <Field label={t('Scope')} required validationMessage={errors.scope ? t(errors.scope) : undefined}>
          <RadioGroup value={form.scope} onChange={(_, d) => change('scope', d.value as ApiTokenScopeValue)}>
            {ApiTokenScope.options.map((o) => (
              <Radio key={o.value} value={o.value} label={`${t(o.label)}: ${t(SCOPE_HINTS[o.value])}`} />
            ))}
          </RadioGroup>
        </Field>
        <Field label={t('Expires in')} required validationMessage={errors.days ? t(errors.days) : undefined}>
          <Select
            value={String(form.days)}
            onChange={(_, d) => change('days', Number(d.value) as NewTokenForm['days'])}
          >
            {TOKEN_LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {t('{days} days', { days })}
              </option>
            ))}
          </Select>
        </Field>
      </FormDialog>
      {made && <TokenShownOnce made={made} onClose={() => setMade(undefined)} />}
    </>
  );
}
