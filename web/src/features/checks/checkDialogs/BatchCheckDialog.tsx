import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Link,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { CheckMessages, type Operation } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { CheckDialogFrame } from './CheckDialogFrame';
import type { CheckSite } from './SiteCheckDialog';
import { startBatchCheck } from './startCheck';

const useStyles = makeStyles({
  sites: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    maxHeight: '160px',
    overflowY: 'auto',
    display: 'grid',
    rowGap: tokens.spacingVerticalXXS,
  },
  siteUrl: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalS },
  section: { display: 'block', margin: `${tokens.spacingVerticalM} 0 ${tokens.spacingVerticalS}` },
  accordion: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export interface BatchCheckDialogProps {
  sites: CheckSite[];
  open: boolean;
  onClose(): void;
  /** After the operation is created (e.g. to clear the table's selection). */
  onStarted?(operation: Operation): void;
}

/** 'Choose checkpoint for multi sites (N)': the chosen sites, a checkpoint grid, one operation for all. */
export function BatchCheckDialog({ open, ...props }: BatchCheckDialogProps): ReactNode {
  return open ? <BatchCheckSurface {...props} /> : null;
}

function BatchCheckSurface({ sites, onClose, onStarted }: Omit<BatchCheckDialogProps, 'open'>): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <CheckDialogFrame
      title={t('Choose checkpoint for multi sites ({count})', { count: sites.length })}
      header={
        <>
          <Accordion collapsible className={styles.accordion}>
            <AccordionItem value="sites">
              <AccordionHeader>{t('Sites ({count})', { count: sites.length })}</AccordionHeader>
              <AccordionPanel>
                <ol className={styles.sites} aria-label={t('Sites')}>
                  {sites.map((s) => (
                    <li key={s.id}>
                      <span>{s.name}</span>
                      <Link className={styles.siteUrl} href={s.url} target="_blank" rel="noreferrer noopener">
                        {s.url}
                      </Link>
                    </li>
                  ))}
                </ol>
              </AccordionPanel>
            </AccordionItem>
          </Accordion>
          <Subtitle2 as="h3" className={styles.section}>
            {t('Checkpoints')}
          </Subtitle2>
        </>
      }
      successText="Check success, go operation menu to check."
      confirmText={t('This operation will detection those sites immediately, confirm to continue?')}
      refuse={(points) =>
        sites.length === 0 ? CheckMessages.noSites : points.length === 0 ? CheckMessages.noPointBatch : null
      }
      start={(points) =>
        startBatchCheck(
          sites.map((s) => s.id),
          points,
        )
      }
      onClose={onClose}
      onStarted={onStarted}
    />
  );
}
