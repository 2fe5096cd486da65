import {
  Badge,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { balanceExample, statementExample } from '@shared/bankWebhookExamples';
import { HEADERS } from '@shared/envelope';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    marginBottom: tokens.spacingVerticalXXL,
  },
  lead: { color: tokens.colorNeutralForeground2, maxWidth: '760px', lineHeight: tokens.lineHeightBase400 },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
    overflowX: 'auto',
  },
  inline: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  examples: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  table: { maxWidth: '900px' },
});

type FieldRow = [name: string, type: string, description: string];

const envelopeFields: FieldRow[] = [
  ['bank', 'number', '1 = KBZ, 2 = AYA'],
  ['type', 'number', '1 = Statement, 2 = Balance'],
  ['content', 'object', 'Statement content or Balance content, below'],
];

const statementFields: FieldRow[] = [
  ['bank', 'number', '1 = KBZ, 2 = AYA'],
  ['account', 'string', 'Account number'],
  ['sender', 'string', 'Sender name (KBZ only, otherwise empty)'],
  ['remark', 'string', 'Remark of the transaction'],
  ['send_date', 'string', 'Date of the transaction'],
  ['send_time', 'string', 'Time of the transaction (AYA only, otherwise empty)'],
  ['amount', 'string', 'Amount, a numeric string'],
];

const balanceFields: FieldRow[] = [
  ['bank', 'string', '1 = KBZ, 2 = AYA, as a numeric string'],
  ['account', 'string', 'Account number, a numeric string'],
  ['pre_bal', 'string', 'Balance before, a numeric string'],
  ['cur_bal', 'string', 'Balance now, a numeric string'],
  ['amount', 'string', 'Change of the balance, a numeric string'],
];

function FieldTable({ rows, caption }: { rows: FieldRow[]; caption: string }): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <Table size="small" className={styles.table} aria-label={t(caption)}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell style={{ width: 140 }}>{t('Field')}</TableHeaderCell>
          <TableHeaderCell style={{ width: 100 }}>{t('Type')}</TableHeaderCell>
          <TableHeaderCell>{t('Description')}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([name, type, description]) => (
          <TableRow key={name}>
            <TableCell>
              <code className={styles.inline}>{name}</code>
            </TableCell>
            <TableCell>{type}</TableCell>
            <TableCell>{t(description)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function BankNotificationHelp(): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <>
      <section className={styles.section}>
        <Text as="h2" size={500} weight="semibold">
          {t('Bank notification webhook')}
        </Text>
        <Text className={styles.lead}>
          {t(
            'Patrol receives bank notifications as an HTTP POST with a JSON body. Each call is authenticated by the API key of the bank account, sent in its own request header.',
          )}
        </Text>
        <pre className={styles.code}>
          {`POST  (webhook address given by your administrator)
Content-Type: application/json
${HEADERS.apiKey}: <API key>`}
        </pre>
      </section>
      <section className={styles.section}>
        <Text as="h3" size={400} weight="semibold">
          {t('Body')}
        </Text>
        <FieldTable rows={envelopeFields} caption="Body" />
      </section>
      <section className={styles.section}>
        <Text as="h3" size={400} weight="semibold">
          {t('Statement content')} <Badge appearance="tint">type 1</Badge>
        </Text>
        <FieldTable rows={statementFields} caption="Statement content" />
      </section>
      <section className={styles.section}>
        <Text as="h3" size={400} weight="semibold">
          {t('Balance content')} <Badge appearance="tint">type 2</Badge>
        </Text>
        <Text className={styles.lead}>{t('All balance fields are numeric strings.')}</Text>
        <FieldTable rows={balanceFields} caption="Balance content" />
      </section>
      <section className={styles.section}>
        <Text as="h3" size={400} weight="semibold">
          {t('Examples')}
        </Text>
        <div className={styles.examples}>
          <div>
            <Text weight="semibold">{t('Statement (KBZ)')}</Text>
            <pre className={styles.code}>{JSON.stringify(statementExample, null, 2)}</pre>
          </div>
          <div>
            <Text weight="semibold">{t('Balance (AYA)')}</Text>
            <pre className={styles.code}>{JSON.stringify(balanceExample, null, 2)}</pre>
          </div>
        </div>
      </section>
    </>
  );
}
