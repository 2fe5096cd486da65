import {
  Badge,
  Link,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import type { RuleItem } from '@shared/schemas/autoCheck';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { ruleItemsQuery } from './autoCheckApi';

/** What a run does with the site now: checks it, or skips it (and says why in the auto log). */
function SiteState({ item }: { item: RuleItem }): ReactNode {
  const t = useT();
  if (item.deleted) return <Badge color="danger">{t('Deleted')}</Badge>;
  if (!item.enable) return <Badge color="warning">{t('Disabled')}</Badge>;
  if (item.available_account_cnt === 0) return <Badge color="warning">{t('No account')}</Badge>;
  return <Badge color="success">{t('Checked')}</Badge>;
}

/** 'Sites of rule {name}': GET /auto-check/rules/{id}/items, one row per site with its state now. */
export function RuleSitesDialog({ rule, onClose }: { rule: { id: number; name: string }; onClose(): void }) {
  const t = useT();
  const items = useQuery(ruleItemsQuery(rule.id));
  return (
    <OkDialog title={t('Sites of rule {name}', { name: rule.name })} size="50vw" onClose={onClose}>
      {items.isPending ? (
        <Spinner size="small" label={t('Loading...')} />
      ) : (
        <Table size="small" aria-label={t('Sites')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('ID')}</TableHeaderCell>
              <TableHeaderCell>{t('Name')}</TableHeaderCell>
              <TableHeaderCell>{t('URL')}</TableHeaderCell>
              <TableHeaderCell>{t('Valid Accounts')}</TableHeaderCell>
              <TableHeaderCell>{t('State')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(items.data ?? []).map((item) => (
              <TableRow key={item.id}>
                <TableCell>{item.id}</TableCell>
                <TableCell>{item.name ?? EMPTY_TEXT}</TableCell>
                <TableCell>
                  {item.url ? (
                    <Link href={item.url} target="_blank" rel="noreferrer noopener">
                      {item.url}
                    </Link>
                  ) : (
                    EMPTY_TEXT
                  )}
                </TableCell>
                <TableCell>{item.available_account_cnt}</TableCell>
                <TableCell>
                  <SiteState item={item} />
                </TableCell>
              </TableRow>
            ))}
            {items.data?.length === 0 ? (
              <TableRow>
                <TableCell colSpan={5}>{t('No result')}</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      )}
    </OkDialog>
  );
}
