import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { ResourceTable } from '@/components/table';
import { bankAccountsResource } from './bankAccountsResource';
import { refreshBankLists } from './bankApi';
import { NewBankAccountDialog } from './NewBankAccountDialog';

/** '/bank/accounts': every bank account, with inline edits and the New Bank Account dialog. */
export default function BankAccountsPage(): ReactNode {
  const client = useQueryClient();
  const navigate = useNavigate();
  const resource = useMemo(
    () =>
      bankAccountsResource(
        client,
        (a) => navigate(pathOf('bankAccountDetail', { accountID: a.id })),
        () => <NewBankAccountDialog onCreated={() => refreshBankLists(client)} />,
      ),
    [client, navigate],
  );
  return <ResourceTable resource={resource} />;
}
