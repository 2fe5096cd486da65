import {
  Badge,
  makeStyles,
  Skeleton,
  SkeletonItem,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  type ApiDocument,
  type DocumentedHeader,
  type DocumentedResponse,
  type InboundWebhookDocs,
  inboundCurl,
  inboundUrl,
  inboundWebhookDocs,
  type NamedExample,
  type OutboundWebhookDocs,
  outboundWebhookDocs,
} from '@shared/bankWebhookDocs';
import { type VerificationRecipe, verificationRecipes } from '@shared/webhookRecipes';
import type { TFunction } from 'i18next';
import { Fragment, type ReactNode, useState } from 'react';
import { LoadFailedPanel } from '@/app/PageHeader';
import { useT } from '@/i18n';
import { useOpenApiDocument } from './apiDocumentApi';
import { CodeBlock } from './CodeBlock';
import { type FieldRow, fieldRows, variantsOf } from './schemaFields';

// The Bank Notification tab, rendered from the API document (GET /api/v1/openapi.json): the inbound
// webhook's path, key header, fields, examples and answers, a curl call built from them, and the
// outbound notification's headers, payload, answers and signature checks. Field and answer
// descriptions come from the document (in English); only this page's own labels are translated.

const useStyles = makeStyles({
  part: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    marginBottom: tokens.spacingVerticalXXXL,
  },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  lead: { color: tokens.colorNeutralForeground2, maxWidth: '860px', lineHeight: tokens.lineHeightBase400 },
  endpoint: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    maxWidth: 'fit-content',
  },
  inline: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    padding: `0 ${tokens.spacingHorizontalXXS}`,
    borderRadius: tokens.borderRadiusSmall,
  },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  table: { maxWidth: '1000px' },
  name: { width: '150px' },
  type: { width: '190px' },
  required: { width: '110px' },
  status: { width: '110px' },
});

/** Text with `code` spans, as the document's descriptions write them. */
function Inline({ text }: { text: string }): ReactNode {
  const styles = useStyles();
  return text.split('`').map((part, i) =>
    // Odd parts sat between backticks.
    i % 2 ? (
      <code key={i} className={styles.inline}>
        {part}
      </code>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

function Heading({ level, children }: { level: 2 | 3; children: ReactNode }): ReactNode {
  return (
    <Text as={level === 2 ? 'h2' : 'h3'} size={level === 2 ? 500 : 400} weight="semibold" style={{ margin: 0 }}>
      {children}
    </Text>
  );
}

function lengthText({ min, max }: NonNullable<FieldRow['length']>, t: TFunction): string {
  if (min !== undefined && max !== undefined) return t('{min}-{max} characters', { min, max });
  return max !== undefined ? t('at most {max} characters', { max }) : t('at least {min} characters', { min });
}

/** A column of a documentation table: its header, width class, and what a row shows in it. */
interface DocColumn<R> {
  header: string;
  /** A fixed width, one of the page's column classes. */
  width?: 'name' | 'type' | 'required' | 'status';
  cell: (row: R, t: TFunction) => ReactNode;
}

/** One small table of the documentation (fields, headers, answers), from its column declaration. */
function DocTable<R>({
  columns,
  rows,
  rowKey,
  caption,
}: {
  columns: DocColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  caption: string;
}): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <Table size="small" className={styles.table} aria-label={caption}>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <TableHeaderCell key={c.header} className={c.width ? styles[c.width] : undefined}>
              {t(c.header)}
            </TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)}>
            {columns.map((c) => (
              <TableCell key={c.header}>{c.cell(row, t)}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Code({ children }: { children: ReactNode }): ReactNode {
  return <code className={useStyles().inline}>{children}</code>;
}

function Muted({ children }: { children: ReactNode }): ReactNode {
  return <div className={useStyles().muted}>{children}</div>;
}

const yesNo = (yes: boolean, t: TFunction) => (yes ? t('Yes') : t('No'));

const fieldColumns: DocColumn<FieldRow>[] = [
  { header: 'Field', width: 'name', cell: (r) => <Code>{r.name}</Code> },
  {
    header: 'Type',
    width: 'type',
    cell: (r, t) => (
      <>
        <Code>{r.type}</Code>
        {r.length ? <Muted>{lengthText(r.length, t)}</Muted> : null}
      </>
    ),
  },
  {
    header: 'Required',
    width: 'required',
    cell: (r, t) => (
      <>
        {yesNo(r.required, t)}
        {r.defaultValue !== undefined ? (
          <Muted>
            {t('default')} <code>{r.defaultValue}</code>
          </Muted>
        ) : null}
      </>
    ),
  },
  { header: 'Description', cell: (r) => <Inline text={r.description} /> },
];

const statusColumns: DocColumn<DocumentedResponse>[] = [
  {
    header: 'Status',
    width: 'status',
    cell: (r, t) => <Code>{r.status === 'default' ? t('other') : r.status}</Code>,
  },
  { header: 'Meaning', cell: (r) => <Inline text={r.description} /> },
];

const headerColumns: DocColumn<DocumentedHeader>[] = [
  { header: 'Header', width: 'type', cell: (h) => <Code>{h.name}</Code> },
  { header: 'Always sent', width: 'required', cell: (h, t) => yesNo(h.required, t) },
  { header: 'Description', cell: (h) => <Inline text={h.description} /> },
];

const FieldTable = ({ rows, caption }: { rows: FieldRow[]; caption: string }) => (
  <DocTable columns={fieldColumns} rows={rows} rowKey={(r) => r.name} caption={caption} />
);
const StatusTable = ({ rows, caption }: { rows: DocumentedResponse[]; caption: string }) => (
  <DocTable columns={statusColumns} rows={rows} rowKey={(r) => r.status} caption={caption} />
);
const HeaderTable = ({ rows, caption }: { rows: DocumentedHeader[]; caption: string }) => (
  <DocTable columns={headerColumns} rows={rows} rowKey={(h) => h.name} caption={caption} />
);

/** The body's fields, then the content fields of each variant (Statement content, Balance content). */
function BodyFields({ docs }: { docs: { body: InboundWebhookDocs['body'] } }): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <>
      <Section title={t('Body')}>
        <FieldTable rows={fieldRows(docs.body)} caption={t('Body')} />
      </Section>
      {variantsOf(docs.body).map((variant, i) => {
        const content = variant.properties?.content;
        if (!content?.properties) return null;
        const title = t(content.title ?? variant.title ?? 'Content');
        const type = variant.properties?.type?.const;
        return (
          <section key={content.title ?? i} className={styles.section}>
            <Heading level={3}>
              {title} {type !== undefined ? <Badge appearance="tint">type {String(type)}</Badge> : null}
            </Heading>
            <FieldTable rows={fieldRows(content)} caption={title} />
          </section>
        );
      })}
    </>
  );
}

function Examples({ examples }: { examples: NamedExample[] }): ReactNode {
  const styles = useStyles();
  return (
    <div className={styles.grid}>
      {examples.map((ex) => (
        <CodeBlock key={ex.name} title={ex.summary} code={JSON.stringify(ex.value, null, 2)} />
      ))}
    </div>
  );
}

/** A titled part of the page: its heading and what it explains. */
function Section({ title, children }: { title: string; children: ReactNode }): ReactNode {
  const styles = useStyles();
  return (
    <section className={styles.section}>
      <Heading level={3}>{title}</Heading>
      {children}
    </section>
  );
}

function Inbound({ docs }: { docs: InboundWebhookDocs }): ReactNode {
  const styles = useStyles();
  const t = useT();
  const origin = window.location.origin;
  return (
    <div className={styles.part}>
      <Heading level={2}>{t('Inbound: send a bank notification to Patrol')}</Heading>
      <Text className={styles.lead}>
        {t(
          'Patrol receives bank notifications as an HTTP POST with a JSON body. Each call is authenticated by the API key of the bank account, sent in its own request header.',
        )}
      </Text>
      <section className={styles.endpoint} aria-label={t('Endpoint')}>
        <Badge appearance="filled" color="brand">
          {docs.method}
        </Badge>
        <code className={styles.inline}>{inboundUrl(docs, origin)}</code>
      </section>
      {docs.description ? (
        <Text className={styles.lead}>
          <Inline text={docs.description} />
        </Text>
      ) : null}
      {docs.auth ? (
        <Section title={t('Authentication')}>
          <Text className={styles.lead}>
            {t('Request header')} <code className={styles.inline}>{docs.auth.header}</code>
            {docs.auth.description ? (
              <>
                {': '}
                <Inline text={docs.auth.description} />
              </>
            ) : null}
          </Text>
        </Section>
      ) : null}
      <BodyFields docs={docs} />
      <Section title={t('Examples')}>
        <Examples examples={docs.examples} />
      </Section>
      <Section title={t('Try it with curl')}>
        <Text className={styles.lead}>
          {t('Put in the API key of the bank account and one of its sub-account numbers.')}
        </Text>
        <CodeBlock title={t('curl example')} code={inboundCurl(docs, origin)} />
      </Section>
      <Section title={t('Responses')}>
        <StatusTable rows={docs.responses} caption={t('Responses')} />
      </Section>
    </div>
  );
}

/** What an integrator would save a recipe as: each is a complete ES module. */
const RECIPE_FILE = 'verifyBankNotification.mjs';

function Verification({ recipes }: { recipes: readonly VerificationRecipe[] }): ReactNode {
  const styles = useStyles();
  const t = useT();
  const [selected, setSelected] = useState(recipes[0]?.id);
  const recipe = recipes.find((r) => r.id === selected) ?? recipes[0];
  return (
    <Section title={t('Verify the signature')}>
      <Text className={styles.lead}>
        {t(
          'Each bank account has its own signing secret (whsec_…). Check every delivery with it before trusting the body: use the raw body as received, and refuse a timestamp more than 5 minutes away. Both recipes below do this; copy either.',
        )}
      </Text>
      <TabList
        size="small"
        selectedValue={recipe?.id}
        onTabSelect={(_, d) => setSelected(d.value as VerificationRecipe['id'])}
        aria-label={t('Verification recipes')}
      >
        {recipes.map((r) => (
          <Tab key={r.id} value={r.id}>
            {r.label}
          </Tab>
        ))}
      </TabList>
      {recipe ? <CodeBlock title={RECIPE_FILE} label={recipe.label} code={recipe.source} /> : null}
    </Section>
  );
}

function Outbound({ docs, sameBody }: { docs: OutboundWebhookDocs; sameBody: boolean }): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <div className={styles.part}>
      <Heading level={2}>{t('Outbound: Patrol notifies your webhook')}</Heading>
      <Text className={styles.lead}>
        {t(
          "When a bank account has a webhook, Patrol POSTs each new statement and balance change to it, signed with the account's secret.",
        )}
      </Text>
      {docs.description ? (
        <Text className={styles.lead}>
          <Inline text={docs.description} />
        </Text>
      ) : null}
      <Section title={t('Headers')}>
        <HeaderTable rows={docs.headers} caption={t('Headers')} />
      </Section>
      <Section title={t('Payload')}>
        {sameBody ? (
          <Text className={styles.lead}>{t('The same JSON body as the inbound webhook, with the fields above.')}</Text>
        ) : (
          <BodyFields docs={docs} />
        )}
        <Examples examples={docs.examples.slice(0, 1)} />
      </Section>
      <Section title={t('What your answer means')}>
        <StatusTable rows={docs.responses} caption={t('What your answer means')} />
      </Section>
      <Verification recipes={verificationRecipes} />
    </div>
  );
}

function Documented({ doc }: { doc: ApiDocument }): ReactNode {
  const t = useT();
  const inbound = inboundWebhookDocs(doc);
  const outbound = outboundWebhookDocs(doc);
  if (!inbound || !outbound) return <LoadFailedPanel message={t('The API document has no bank webhook.')} />;
  const sameBody = JSON.stringify(inbound.body) === JSON.stringify(outbound.body);
  return (
    <>
      <Inbound docs={inbound} />
      <Outbound docs={outbound} sameBody={sameBody} />
    </>
  );
}

export function BankNotificationHelp(): ReactNode {
  const t = useT();
  const { data, isPending, isError } = useOpenApiDocument();
  if (data) return <Documented doc={data} />;
  if (isPending) {
    return (
      <Skeleton aria-label={t('Loading')}>
        <SkeletonItem style={{ width: '40%', marginBottom: 12 }} />
        <SkeletonItem style={{ width: '70%', marginBottom: 12 }} />
        <SkeletonItem style={{ width: '60%' }} />
      </Skeleton>
    );
  }
  return isError ? <LoadFailedPanel message={t('Loading the API document failed')} /> : null;
}
