import { Add20Regular, CalendarLtr20Regular } from '@fluentui/react-icons';
import { type AutoCheckRule, ruleListFields } from '@shared/schemas/autoCheck';
import { slotsOf } from '@shared/autoCheckSchedule';
import { Weekday } from '@shared/enums';
import { Link } from '@fluentui/react-components';
import { col, defineResource, type Resource } from '@/components/table';
import { toast } from '@/app/toast';
import { t } from '@/i18n';
import { skippedText } from './skippedText';
import { checkRuleNow, deleteRule, RULES, setRuleEnable } from './autoCheckApi';

/** What the Rules screen does beyond its table: open a page or the Show-sites dialog. */
export interface RulesScreen {
  open(path: 'new' | 'calendar' | { ruleId: number }): void;
  showSites(rule: AutoCheckRule): void;
  /** After a change that other lists show (the calendar, the logs). */
  changed(): Promise<unknown>;
}

/** 'Mon 09:30, Wed 09:30': a rule's slots in week order, short day names. */
export function timesText(rule: Pick<AutoCheckRule, 'times'>): string {
  return slotsOf(rule.times)
    .map((s) => `${t(Weekday.label(s.day)).slice(0, 3)} ${s.time}`)
    .join(', ');
}

/** The Auto Check Rules table (spec section 2). */
export function rulesResource(screen: RulesScreen): Resource<AutoCheckRule> {
  return defineResource<AutoCheckRule>({
    name: RULES,
    endpoint: '/auto-check/rules',
    listFields: ruleListFields,
    title: 'Auto Check Rules',
    rowId: (r) => r.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch rule failed.',
    columns: [
      col.number('id', 'ID', { sortable: true, filter: true }),
      col.text('name', 'Name', { searchable: true, filter: true, sortable: true }),
      col.custom('sites', 'Sites', {
        text: (r) => String(r.sites.length),
        render: (r) => (
          <Link
            as="button"
            inline
            onClick={() => screen.showSites(r)}
            aria-label={t('Show sites of {name}', { name: r.name })}
          >
            {t(r.sites.length === 1 ? '{count} site' : '{count} sites', { count: r.sites.length })}
          </Link>
        ),
      }),
      col.custom('times', 'Times', { text: timesText, width: 200 }),
      col.boolean('enable', 'Enable', {
        filter: true,
        sortable: true,
        toggle: async (r, enable) => {
          await setRuleEnable(r, enable);
          await screen.changed();
        },
      }),
      col.datetime('next_run', 'Next Run', {
        help: 'The next time the rule runs by itself, in the configured time zone; none while it is disabled.',
      }),
      col.user('creator', 'Creator'),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [
      {
        label: 'NewRule',
        write: true,
        appearance: 'primary',
        icon: <Add20Regular />,
        onClick: () => screen.open('new'),
      },
      { label: 'Calendar', icon: <CalendarLtr20Regular />, onClick: () => screen.open('calendar') },
    ],
    rowActions: [
      { label: 'Detail', onClick: (r) => screen.open({ ruleId: r.id }) },
      {
        label: 'CheckNow',
        write: true,
        confirm: () => t('This operation will detection those sites immediately, confirm to continue?'),
        onClick: async (r) => {
          const reply = await checkRuleNow(r).catch(() => null);
          // A rule keeps running on the sites it still has; say which ones this run leaves out.
          if (reply?.skipped.length) toast.warning(t('Skipped sites: {sites}', { sites: skippedText(reply.skipped) }));
        },
      },
      {
        label: 'Delete',
        write: true,
        confirm: (r) => t('Confirm Delete Rule {name}?', { name: r.name }),
        onClick: async (r, { refetch }) => {
          await deleteRule(r).catch(() => undefined);
          await Promise.all([refetch(), screen.changed()]);
        },
      },
    ],
  });
}
