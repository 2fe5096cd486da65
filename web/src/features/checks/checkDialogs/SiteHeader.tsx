import { Link, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Open16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/table/CellContent';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    marginBottom: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
  url: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  link: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** The site a check dialog is about: its name, a link to its address and a copy button. */
export function SiteHeader({ site }: { site: { name: string; url: string } }): ReactNode {
  const _t = useT();
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <Text weight="semibold" size={400}>
        {site.name}
      </Text>
      <span className={styles.url}>
        <Link className={styles.link} href={site.url} target="_blank" rel="noreferrer noopener">
          {site.url}
        </Link>
        <Open16Regular aria-hidden />
        <CopyButton text={site.url} />
      </span>
    </div>
  );
}
