// A config field kept apart from the document (ConfigField kind 'secret', e.g. the SSO client
// secret): the document is read by every signed-in user, so the secret is written at its own API
// path and read back only as whether it is set and its masked hint. Saved with its own button.
import { Button, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  input: { flexGrow: 1, minWidth: 0, maxWidth: '480px' },
});

interface SecretState {
  set: boolean;
  hint: string;
}

export function ConfigSecretInput({ path, url }: { path: string; url: string }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const key = queryKeys.related('configSecret', 'state', path);
  const state = useQuery({ queryKey: key, queryFn: () => request<SecretState>({ url, silent: true }) });
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const field = path.split('.').at(-1) ?? path;

  const save = async (secret: string) => {
    setBusy(true);
    try {
      const next = await request<SecretState>({
        method: 'PUT',
        url,
        data: { [field]: secret },
        successTip: secret ? 'Secret saved' : 'Secret cleared',
        failureTip: 'Save secret failed',
      });
      client.setQueryData(key, next);
      setValue('');
    } finally {
      setBusy(false);
    }
  };

  const current = state.data;
  return (
    <div className={styles.row}>
      <Input
        className={styles.input}
        name={path}
        type="password"
        autoComplete="new-password"
        value={value}
        placeholder={current?.set ? t('Set: {hint}', { hint: current.hint }) : t('Not set')}
        onChange={(_, d) => setValue(d.value)}
      />
      <Button size="small" disabled={busy || !value.trim()} onClick={() => void save(value.trim())}>
        {t('Save secret')}
      </Button>
      {current?.set ? (
        <Button size="small" appearance="subtle" disabled={busy} onClick={() => void save('')}>
          {t('Clear')}
        </Button>
      ) : null}
    </div>
  );
}
