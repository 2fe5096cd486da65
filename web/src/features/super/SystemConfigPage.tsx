import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { ArrowResetRegular, SaveRegular } from '@fluentui/react-icons';
import {
  SystemConfig,
  type SystemConfigInput,
  systemConfigFields,
  writeConfigPath,
} from '@shared/schemas/systemConfig';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { PageHeader, Panel } from '@/app/PageHeader';
import { checkWith } from '@/components/dialog/checkWith';
import { useDocumentForm } from '@/components/form/useDocumentForm';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { ConfigForm } from './ConfigForm';
import { configVersionsResource } from './configVersionsResource';
import { saveSystemConfig, superSystemConfigQuery } from './systemConfigApi';

const useStyles = makeStyles({
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(280px, 2fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    marginBottom: tokens.spacingVerticalL,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalL },
  json: {
    margin: 0,
    maxHeight: '70vh',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre',
  },
  jsonTitle: { display: 'block', marginBottom: tokens.spacingVerticalS },
});

/** '/super/system/config': the system config as a generated form, its JSON beside it, its versions below. */
export default function SystemConfigPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data } = useQuery(superSystemConfigQuery);
  const { draft, errors, busy, edit, submit, reset } = useDocumentForm({
    document: data,
    toDraft: (d): SystemConfigInput => d.document,
    check: (d) => checkWith(SystemConfig, d),
    save: saveSystemConfig,
  });

  if (!data || !draft) {
    return (
      <>
        <PageHeader title={t('Config')} />
        <Spinner label={t('Loading')} />
      </>
    );
  }

  const change = (path: string, value: unknown) => edit(path, (d) => writeConfigPath(d, path, value));

  return (
    <>
      <PageHeader
        title={t('Config')}
        subtitle={
          data.version
            ? t('Version {version}, saved by {nickname} at {time}', {
                version: data.version,
                nickname: data.updated_by?.nickname ?? 'SYSTEM',
                time: formatDateTime(data.updated_at),
              })
            : t('Defaults, never saved')
        }
      />
      <div className={styles.columns}>
        <Panel>
          <form onSubmit={submit} noValidate aria-label={t('System config')}>
            <ConfigForm fields={systemConfigFields} value={draft} onChange={change} errors={errors} />
            <div className={styles.actions}>
              <Button type="submit" appearance="primary" icon={<SaveRegular />} disabled={busy}>
                {t('Save')}
              </Button>
              <Button type="button" icon={<ArrowResetRegular />} disabled={busy} onClick={reset}>
                {t('Reset')}
              </Button>
            </div>
          </form>
        </Panel>
        <Panel>
          <figure style={{ margin: 0 }} aria-label={t('Config as JSON')}>
            <Text as="h2" weight="semibold" className={styles.jsonTitle}>
              {t('JSON')}
            </Text>
            <pre className={styles.json}>{JSON.stringify(draft, null, 2)}</pre>
          </figure>
        </Panel>
      </div>
      <ResourceTable resource={configVersionsResource} />
    </>
  );
}
