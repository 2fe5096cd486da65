import { Button } from '@fluentui/react-components';
import { History20Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { operationsResource } from './operationsResource';

export default function OperationsPage(): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  return (
    <ResourceTable
      resource={operationsResource}
      toolbar={
        <Button icon={<History20Regular />} onClick={() => navigate(pathOf('operationRecords'))}>
          {t('Records')}
        </Button>
      }
    />
  );
}
