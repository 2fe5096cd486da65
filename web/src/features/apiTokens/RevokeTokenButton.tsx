import { Button } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import type { ApiToken } from '@shared/schemas/apiTokens';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { useT } from '@/i18n';
import { revokeApiToken } from './apiTokensApi';

/** A row's Revoke, after a confirmation; a revoked token's row offers none. */
export function RevokeTokenButton({ token, onDone }: { token: ApiToken; onDone: () => unknown }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (token.revoked_at) return null;
  return (
    <>
      <Button size="small" appearance="subtle" icon={<DeleteRegular />} onClick={() => setOpen(true)}>
        {t('Revoke')}
      </Button>
      <ConfirmDialog
        open={open}
        confirmLabel="Revoke"
        message={t('Token {name} stops working at once. Scripts that use it get 401.', { name: token.name })}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          void revokeApiToken(token).then(onDone, () => undefined);
        }}
      />
    </>
  );
}
