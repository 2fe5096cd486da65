import { PAGE_SIZE_OPTIONS } from '@shared/listQuery';
import { useT } from '@/i18n';
import { Button, Caption1, Dropdown, makeStyles, Option, Tooltip, tokens } from '@fluentui/react-components';
import {
  ChevronDoubleLeft20Regular,
  ChevronDoubleRight20Regular,
  ChevronLeft20Regular,
  ChevronRight20Regular,
} from '@fluentui/react-icons';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'flex-end',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  group: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  size: { minWidth: '90px', width: '90px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export interface TablePaginationProps {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  /**
   * Set when the server stopped at its read budget (`total_exact: false`): `total` then counts the
   * matches among the `searched` newest rows only, so it shows as 'N+'.
   */
  searched?: number;
  onPage(page: number): void;
  onPageSize(size: number): void;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Page size (0 = All), 'x-y of total' and page buttons; a partial total reads 'N+' with how far it looked. */
export function TablePagination({
  page,
  pageSize,
  pageCount,
  total,
  searched,
  onPage,
  onPageSize,
}: TablePaginationProps) {
  const t = useT();
  const styles = useStyles();
  const partial = searched !== undefined;
  const totalText = partial ? `${count(total)}+` : count(total);
  const sizeLabel = (n: number) => (n === 0 ? t('All') : String(n));
  const first = total === 0 ? 0 : pageSize === 0 ? 1 : (page - 1) * pageSize + 1;
  const last = pageSize === 0 ? total : Math.min(page * pageSize, total);
  const nav = (label: string, icon: React.ReactElement, to: number, disabled: boolean) => (
    <Tooltip content={t(label)} relationship="label">
      <Button appearance="subtle" size="small" icon={icon} disabled={disabled} onClick={() => onPage(to)} />
    </Tooltip>
  );
  return (
    <div className={styles.bar}>
      <div className={styles.group}>
        <Caption1 className={styles.muted}>{t('Rows per page')}</Caption1>
        <Dropdown
          className={styles.size}
          size="small"
          aria-label={t('Rows per page')}
          value={sizeLabel(pageSize)}
          selectedOptions={[String(pageSize)]}
          onOptionSelect={(_, d) => onPageSize(Number(d.optionValue))}
        >
          {PAGE_SIZE_OPTIONS.map((n) => (
            <Option key={n} value={String(n)}>
              {sizeLabel(n)}
            </Option>
          ))}
        </Dropdown>
      </div>
      <Caption1>
        {t('{first}-{last} of {total}', { first: count(first), last: count(last), total: totalText })}
      </Caption1>
      {partial ? (
        <Caption1 className={styles.muted}>
          {t('Searched the newest {count} rows', { count: count(searched) })}
        </Caption1>
      ) : null}
      <div className={styles.group}>
        {nav('First page', <ChevronDoubleLeft20Regular />, 1, page <= 1)}
        {nav('Previous page', <ChevronLeft20Regular />, page - 1, page <= 1)}
        <Caption1>
          {t('Page {page} of {count}', { page, count: `${Math.max(pageCount, 1)}${partial ? '+' : ''}` })}
        </Caption1>
        {nav('Next page', <ChevronRight20Regular />, page + 1, page >= pageCount)}
        {nav('Last page', <ChevronDoubleRight20Regular />, pageCount, page >= pageCount)}
      </div>
    </div>
  );
}
