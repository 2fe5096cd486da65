import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { ResourceTable } from '@/components/table';
import { subAccountsResource } from './subAccountsResource';

/** '/bank/sub-accounts': every sub-account, with the batch enable/disable menu. */
export default function SubAccountsPage(): ReactNode {
  const client = useQueryClient();
  const navigate = useNavigate();
  const resource = useMemo(
    () => subAccountsResource(client, (s) => navigate(pathOf('bankAccountDetail', { accountID: s.account_id }))),
    [client, navigate],
  );
  return <ResourceTable resource={resource} />;
}
