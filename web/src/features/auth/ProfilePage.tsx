import { Avatar, Badge, makeStyles, Skeleton, SkeletonItem, Text, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { PageHeader, Panel } from '@/app/PageHeader';
import { useT } from '@/i18n';
import { profileQuery } from './authApi';
import { TelegramLinkPanel } from './TelegramLinkPanel';
import { UserRole } from '@shared/enums';

const useStyles = makeStyles({
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    marginBottom: tokens.spacingVerticalXL,
  },
  list: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalXXL,
    rowGap: tokens.spacingVerticalM,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, fontWeight: tokens.fontWeightSemibold },
});

export default function ProfilePage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const { data, isPending } = useQuery(profileQuery);
  const rows: Array<[string, string | undefined]> = [
    ['Nickname', data?.nickname],
    ['Username', data?.username],
    ['Created', data ? formatDateTime(data.created_at) : undefined],
    ['Updated', data ? formatDateTime(data.updated_at) : undefined],
  ];
  return (
    <>
      <PageHeader title={t('Profile')} />
      <Panel style={{ maxWidth: 560 }}>
        <div className={styles.head}>
          <Avatar name={data?.nickname ?? ''} size={56} color="colorful" />
          <div>
            <Text as="h2" size={500} weight="semibold" block style={{ margin: 0 }}>
              {data?.nickname ?? ' '}
            </Text>
            {data ? (
              <Badge
                appearance="tint"
                color={data.role === 'super' ? 'brand' : data.role === 'viewer' ? 'subtle' : 'informative'}
              >
                {data.role === 'super' ? t('Super user') : t(UserRole.label(data.role))}
              </Badge>
            ) : null}
          </div>
        </div>
        <dl className={styles.list}>
          {rows.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt className={styles.term}>{t(label)}</dt>
              <dd className={styles.value}>
                {isPending ? (
                  <Skeleton aria-label={t('Loading')}>
                    <SkeletonItem style={{ width: 160 }} />
                  </Skeleton>
                ) : (
                  (value ?? '/')
                )}
              </dd>
            </div>
          ))}
        </dl>
      </Panel>
      <div style={{ height: 16 }} />
      <TelegramLinkPanel />
    </>
  );
}
