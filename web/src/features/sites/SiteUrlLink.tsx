import { Link, makeStyles } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  link: {
    display: 'inline-block',
    maxWidth: '200px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'bottom',
  },
});

/** A site's address, opened in a new tab; long addresses are cut, the full one is in the title. */
export function SiteUrlLink({ url }: { url: string }): ReactNode {
  const styles = useStyles();
  return (
    <Link className={styles.link} href={url} target="_blank" rel="noreferrer noopener" title={url}>
      {url}
    </Link>
  );
}
