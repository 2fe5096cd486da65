import {
  Button,
  Checkbox,
  Combobox,
  Field,
  Input,
  Label,
  makeStyles,
  Option,
  Radio,
  RadioGroup,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { Weekday } from '@shared/enums';
import { MaintenanceKind, MaintenanceMode, type MaintenanceWindow } from '@shared/schemas/maintenance';
import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactElement, ReactNode } from 'react';
import { displayTimeZone } from '@/app/format';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useSystemConfig } from '@/features/super/systemConfigApi';
import { useT } from '@/i18n';
import { refreshMaintenance, saveMaintenance, siteNamesQuery } from './maintenanceApi';
import { WallClockField } from './WallClockField';
import { checkMaintenance, emptyMaintenanceForm, type MaintenanceForm, maintenanceFormOf } from './maintenanceForm';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  grow: { flexGrow: 1, minWidth: '160px' },
  days: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, border: 0, padding: 0, margin: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

/** The zone a window's wall-clock times are in: the system config's. */
function useZone(): string {
  const { data } = useSystemConfig();
  return data?.time_zone ?? displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone;
}

/**
 * New window (the table action) or Edit (a row's): name, sites or all, pause or silent, one-off
 * (start and end on the zone's wall clock) or weekly (weekdays and a time range; an end at or
 * before the start runs past midnight). The server's schema checks the form.
 */
export function MaintenanceDialog({ window: w, trigger }: { window?: MaintenanceWindow; trigger?: ReactElement }) {
  const t = useT();
  const styles = useStyles();
  const zone = useZone();
  const client = useQueryClient();
  const sites = useQuery(siteNamesQuery);
  const dialog = useFormDialog({
    initial: () => (w ? maintenanceFormOf(w, zone) : emptyMaintenanceForm(zone)),
    check: (form: MaintenanceForm) => checkMaintenance(form, zone),
    save: (body) => saveMaintenance(w?.id ?? null, body),
    onDone: () => refreshMaintenance(client),
  });
  const { form, change, errors } = dialog;
  const message = (key: keyof MaintenanceForm) => (errors[key] ? t(errors[key] as string) : undefined);
  const names = new Map((sites.data ?? []).map((s) => [s.id, s.name]));
  const chosen = form.sites.map((id) => names.get(id) ?? `#${id}`);

  return (
    <FormDialog
      state={dialog}
      modalType="alert"
      title={w ? t('Edit maintenance window') : t('New maintenance window')}
      trigger={
        trigger ?? (
          <Button appearance="primary" icon={<Add20Regular />}>
            {t('NewWindow')}
          </Button>
        )
      }
    >
      <Field label={t('Name')} required validationMessage={message('name')}>
        <Input value={form.name} onChange={(_, d) => change('name', d.value)} />
      </Field>
      {/* A fieldset, not a Field: a Field would make each control inside it the field's own. */}
      <fieldset className={styles.group}>
        <legend className={styles.legend}>
          <Label required>{t('Sites')}</Label>
        </legend>
        <Switch label={t('All sites')} checked={form.all_sites} onChange={(_, d) => change('all_sites', d.checked)} />
        {form.all_sites ? null : (
          <Combobox
            multiselect
            aria-label={t('Sites')}
            placeholder={chosen.length ? chosen.join(', ') : t('Choose sites')}
            selectedOptions={form.sites.map(String)}
            onOptionSelect={(_, d) => change('sites', d.selectedOptions.map(Number))}
          >
            {(sites.data ?? []).map((s) => (
              <Option key={s.id} value={String(s.id)}>
                {s.name}
              </Option>
            ))}
          </Combobox>
        )}
        {message('sites') ? <Text className={styles.error}>{message('sites')}</Text> : null}
      </fieldset>
      <Field label={t('Mode')} required validationMessage={message('mode')}>
        <RadioGroup
          layout="horizontal"
          value={form.mode}
          onChange={(_, d) => change('mode', d.value as MaintenanceForm['mode'])}
        >
          {MaintenanceMode.options.map((o) => (
            <Radio key={o.value} value={o.value} label={t(MODE_HINTS[o.value])} />
          ))}
        </RadioGroup>
      </Field>
      <Field label={t('When')} required>
        <RadioGroup
          layout="horizontal"
          value={form.kind}
          onChange={(_, d) => change('kind', d.value as MaintenanceForm['kind'])}
        >
          {MaintenanceKind.options.map((o) => (
            <Radio key={o.value} value={o.value} label={t(o.label)} />
          ))}
        </RadioGroup>
      </Field>
      {form.kind === 'once' ? (
        <div className={styles.row}>
          <WallClockField edge="start" zone={zone} form={form} change={change} message={message('start_date')} />
          <WallClockField edge="end" zone={zone} form={form} change={change} message={message('end_date')} />
        </div>
      ) : (
        <>
          <fieldset className={styles.group}>
            <legend className={styles.legend}>
              <Label required>{t('Weekdays')}</Label>
            </legend>
            <div className={styles.days}>
              {Weekday.options.map((o) => (
                <Checkbox
                  key={o.value}
                  label={t(o.label)}
                  checked={form.days.includes(o.value)}
                  onChange={(_, d) =>
                    change('days', d.checked ? [...form.days, o.value] : form.days.filter((day) => day !== o.value))
                  }
                />
              ))}
            </div>
            {message('days') ? <Text className={styles.error}>{message('days')}</Text> : null}
          </fieldset>
          <div className={styles.row}>
            <Field
              className={styles.grow}
              label={t('From ({zone})', { zone })}
              validationMessage={message('start_time')}
            >
              <Input type="time" value={form.start_time} onChange={(_, d) => change('start_time', d.value)} />
            </Field>
            <Field
              className={styles.grow}
              label={t('To')}
              hint={t('An end at or before the start runs past midnight')}
              validationMessage={message('end_time')}
            >
              <Input type="time" value={form.end_time} onChange={(_, d) => change('end_time', d.value)} />
            </Field>
          </div>
        </>
      )}
      <Switch label={t('Enabled')} checked={form.enabled} onChange={(_, d) => change('enabled', d.checked)} />
    </FormDialog>
  );
}

/** What each mode does, as its radio says it. */
const MODE_HINTS: Record<MaintenanceForm['mode'], string> = {
  pause: 'Pause: rule slots skip these sites',
  silent: 'Silent: checks run, no incident alerts',
};

/** A row's Edit button with the dialog behind it. */
export function EditMaintenanceButton({ window: w }: { window: MaintenanceWindow }): ReactNode {
  const t = useT();
  return <MaintenanceDialog window={w} trigger={<Button size="small">{t('Edit')}</Button>} />;
}
