import { Button } from '@fluentui/react-components';
import { Open16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';

/** The Detail button of an operation row: opens the operation detail page. */
export function OpenDetailButton({ operationId }: { operationId: number }): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Button
      size="small"
      appearance="subtle"
      icon={<Open16Regular />}
      onClick={() => navigate(pathOf('operationDetail', { operationID: operationId }))}
    >
      {t('Detail')}
    </Button>
  );
}
