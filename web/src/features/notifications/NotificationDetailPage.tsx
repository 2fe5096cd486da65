import { queryKeys } from '@/api/queryKeys';
import { Badge, Button, makeStyles, Skeleton, SkeletonItem, tokens } from '@fluentui/react-components';
import { Open16Regular } from '@fluentui/react-icons';
import { NotificationCategory } from '@shared/enums';
import type { Notification } from '@shared/schemas/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, type ReactNode, useEffect, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useCanWrite } from '@/app/auth';
import { EMPTY_TEXT } from '@/app/constants';
import { formatDateTime, orEmpty, userName } from '@/app/format';
import { LoadFailedPanel, PageHeader, Panel } from '@/app/PageHeader';
import { Facts } from '@/components/display/Facts';
import { useT } from '@/i18n';
import { NotificationStatusBadge } from './NotificationStatusBadge';
import { notificationQuery } from './notificationsApi';
import { sanitizeHtml } from './sanitizeHtml';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '1100px' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  body: {
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground2,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    marginTop: tokens.spacingVerticalXS,
    fontWeight: tokens.fontWeightRegular,
    lineHeight: tokens.lineHeightBase400,
    wordBreak: 'break-word',
    '& p': { margin: `0 0 ${tokens.spacingVerticalS} 0` },
    '& p:last-child': { marginBottom: 0 },
    '& a': { color: tokens.colorBrandForegroundLink },
    '& img': { maxWidth: '100%' },
  },
});

/** Links inside the body that point into the console move within the app instead of reloading it. */
function useInAppLinks(): (e: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return (e) => {
    const anchor = (e.target as HTMLElement).closest('a');
    if (!anchor || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    e.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  };
}

function NotificationBody({ n }: { n: Notification }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const onClick = useInAppLinks();
  const html = useMemo(() => sanitizeHtml(n.content ?? ''), [n.content]);
  return (
    <Panel>
      <Facts
        items={[
          { label: t('ID'), value: n.id },
          { label: t('Sender'), value: userName(n.from_user) },
          { label: t('Send Time'), value: formatDateTime(n.created_at) },
          {
            label: t('Status'),
            value: (
              <span className={styles.badges}>
                <NotificationStatusBadge status={n.status} />
                <Badge appearance="outline" color="informative">
                  {t(NotificationCategory.label(n.category))}
                </Badge>
              </span>
            ),
          },
          { label: t('Title'), value: orEmpty(n.title), wide: true },
          { label: t('Subtitle'), value: orEmpty(n.caption), wide: true },
          {
            label: t('Message'),
            wide: true,
            value: html.trim() ? (
              <div
                className={styles.body}
                data-testid="notification-content"
                onClick={onClick}
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized with DOMPurify above
                dangerouslySetInnerHTML={{ __html: html }}
              />
            ) : (
              EMPTY_TEXT
            ),
          },
        ]}
      />
    </Panel>
  );
}

export default function NotificationDetailPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().notificationID);
  // The key holds the id, so moving to another notification loads (and marks read) that one.
  const { data: n, isPending, isError, isSuccess } = useQuery(notificationQuery(id, useCanWrite()));

  useEffect(() => {
    // The list and its unread badges are stale once this one is read.
    if (isSuccess) void queryClient.invalidateQueries({ queryKey: queryKeys.lists('notifications') });
  }, [isSuccess, queryClient]);

  let content: ReactNode;
  if (n) content = <NotificationBody n={n} />;
  else if (isPending) {
    content = (
      <Panel>
        <Skeleton aria-label={t('Loading…')}>
          <SkeletonItem size={16} style={{ width: '40%', marginBottom: 12 }} />
          <SkeletonItem size={16} style={{ width: '70%', marginBottom: 12 }} />
          <SkeletonItem size={48} />
        </Skeleton>
      </Panel>
    );
  } else if (isError) {
    content = <LoadFailedPanel message={t('Get Notification failed')} />;
  }

  return (
    <div className={styles.page}>
      <PageHeader
        title={t('Notification Detail')}
        actions={
          n?.link ? (
            <Button
              icon={<Open16Regular />}
              onClick={() => (n.link.startsWith('/') ? navigate(n.link) : window.open(n.link, '_blank', 'noopener'))}
            >
              {t('Open')}
            </Button>
          ) : null
        }
      />
      {content}
    </div>
  );
}
