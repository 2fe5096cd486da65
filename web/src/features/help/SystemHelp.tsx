import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { ArchitectureDiagram } from './ArchitectureDiagram';

const useStyles = makeStyles({
  figure: {
    margin: `0 0 ${tokens.spacingVerticalXL}`,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  caption: { color: tokens.colorNeutralForeground3, marginTop: tokens.spacingVerticalS },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: {
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  body: { color: tokens.colorNeutralForeground2, lineHeight: tokens.lineHeightBase300 },
});

const parts: ReadonlyArray<[title: string, text: string]> = [
  [
    'Web console',
    'This application. It runs in the browser and talks only to the API under /api/v1, sending the login token with every call.',
  ],
  [
    'API',
    'API Gateway passes each call to one API Lambda. It checks the token and the input, answers in one envelope, and keeps all state in a single DynamoDB table.',
  ],
  [
    'Checks',
    'A check is recorded as an Operation. It splits into one Task per site, and each Task into SubTasks, one per function point and test mode. SubTasks wait in an SQS queue.',
  ],
  [
    'Checker',
    'Checker Lambdas take SubTasks from the queue, drive a headless Chromium on the site with one of its bot accounts, record a video to S3 and store the CheckLog and the raw browser log.',
  ],
  [
    'Schedules',
    'EventBridge starts the auto-check rules at their weekly times and wakes the bank pollers at each account’s monitor interval, within its monitor range.',
  ],
  [
    'Bank monitoring',
    'Bank pollers refresh the sub-accounts, statements and balances of KBZ and AYA accounts. New statements and balance changes become bank notifications.',
  ],
  [
    'Notifications',
    'When a SubTask, Task or Operation finishes a notification is created. Notifiers push notifications to the Telegram channel and bank notifications to the account’s webhook.',
  ],
];

export function SystemHelp(): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <>
      <figure className={styles.figure}>
        <ArchitectureDiagram />
        <figcaption className={styles.caption}>
          <Text size={200}>{t('How a request and a check travel through Patrol.')}</Text>
        </figcaption>
      </figure>
      <div className={styles.grid}>
        {parts.map(([title, text]) => (
          <section key={title} className={styles.card}>
            <Text weight="semibold" size={400}>
              {t(title)}
            </Text>
            <Text className={styles.body}>{t(text)}</Text>
          </section>
        ))}
      </div>
    </>
  );
}
