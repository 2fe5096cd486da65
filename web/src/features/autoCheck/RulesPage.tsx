import type { AutoCheckRule } from '@shared/schemas/autoCheck';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { ResourceTable } from '@/components/table';
import { refreshRules } from './autoCheckApi';
import { RuleSitesDialog } from './RuleSitesDialog';
import { rulesResource } from './rulesResource';

/** '/auto-checks/rules': the rules, their Show-sites dialog, and the way to the calendar. */
export default function RulesPage(): ReactNode {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [sitesOf, setSitesOf] = useState<AutoCheckRule | null>(null);
  const resource = useMemo(
    () =>
      rulesResource({
        open: (to) =>
          navigate(
            to === 'new'
              ? pathOf('autoCheckNew')
              : to === 'calendar'
                ? pathOf('autoCheckCalendar')
                : pathOf('autoCheckRuleDetail', { ruleID: to.ruleId }),
          ),
        showSites: setSitesOf,
        changed: () => refreshRules(client),
      }),
    [navigate, client],
  );
  return (
    <>
      <ResourceTable resource={resource} />
      {sitesOf ? <RuleSitesDialog rule={sitesOf} onClose={() => setSitesOf(null)} /> : null}
    </>
  );
}
