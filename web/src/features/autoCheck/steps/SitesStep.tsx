import { makeStyles, MessageBar, MessageBarBody, Tag, TagGroup, Text, tokens } from '@fluentui/react-components';
import type { Site } from '@shared/schemas/sites';
import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { siteChoiceResource } from './siteChoiceResource';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  chosen: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

export interface SitesStepProps {
  sites: number[];
  /** Names of the chosen sites known so far (from the table, or the rule's items on the edit page). */
  names: Record<number, string>;
  problem?: string;
  showProblem: boolean;
  onChange(sites: number[], names: Record<number, string>): void;
}

/** Step 2: the Sites table with its search and multi-select; the chosen sites as removable tags. */
export function SitesStep({ sites, names, problem, showProblem, onChange }: SitesStepProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const keys = sites.map(String);
  const choose = (next: string[], pageRows: readonly Site[]) => {
    const known = { ...names };
    for (const s of pageRows) known[s.id] = s.name;
    onChange(next.map(Number), known);
  };
  return (
    <div className={styles.root}>
      {showProblem && problem ? (
        <MessageBar intent="error">
          <MessageBarBody>{t(problem)}</MessageBarBody>
        </MessageBar>
      ) : null}
      <div className={styles.chosen}>
        <Text weight="semibold">{t('Selected sites ({count})', { count: sites.length })}</Text>
        <TagGroup
          aria-label={t('Selected sites')}
          onDismiss={(_, d) =>
            onChange(
              sites.filter((id) => String(id) !== d.value),
              names,
            )
          }
        >
          {sites.map((id) => (
            <Tag key={id} value={String(id)} size="small" dismissible dismissIcon={{ 'aria-label': t('Remove') }}>
              {names[id] ?? `#${id}`}
            </Tag>
          ))}
        </TagGroup>
      </div>
      <ResourceTable resource={siteChoiceResource} selection={{ keys, onChange: choose }} />
    </div>
  );
}
