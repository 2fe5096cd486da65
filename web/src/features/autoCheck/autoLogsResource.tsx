import { type AutoLog, autoLogListFields } from '@shared/schemas/autoCheck';
import { EMPTY_TEXT } from '@/app/constants';
import { pathOf } from '@/app/paths';
import { RouteLink } from '@/components/display/RouteLink';
import { col, defineResource, type Resource } from '@/components/table';
import { t } from '@/i18n';
import { AUTO_LOGS, FETCH_RULE_FAILED } from './autoCheckApi';
import { skippedText } from './skippedText';
import { weekStampText } from './weekStampText';

/** The Auto Check Logs table (spec section 2): one row per slot a rule ran (or missed). */
export function autoLogsResource(openRule: (ruleId: number) => void): Resource<AutoLog> {
  return defineResource<AutoLog>({
    name: AUTO_LOGS,
    endpoint: '/auto-check/rules/logs',
    listFields: autoLogListFields,
    title: 'Auto Check Logs',
    rowId: (l) => l.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: FETCH_RULE_FAILED,
    columns: [
      col.number('id', 'ID', { sortable: true, filter: true }),
      col.number('rule_id', 'Rule ID', { filter: true }),
      col.custom('rule', 'Rule', { text: (l) => l.rule?.name ?? EMPTY_TEXT }),
      col.number('week_stamp', 'Week Stamp', {
        sortable: true,
        filter: true,
        render: (l) => weekStampText(l.week_stamp),
        help: 'The slot of the week the run belongs to: weekday and time in the configured time zone.',
      }),
      col.boolean('success', 'Success', { filter: true, sortable: true }),
      col.custom('operation_id', 'Operation', {
        text: (l) => (l.operation_id === null ? EMPTY_TEXT : String(l.operation_id)),
        render: (l) =>
          l.operation_id === null ? (
            EMPTY_TEXT
          ) : (
            <RouteLink to={pathOf('operationDetail', { operationID: l.operation_id })}>
              {t('Operation #{id}', { id: l.operation_id })}
            </RouteLink>
          ),
      }),
      col.custom('missed', 'Missed', { text: (l) => (l.missed ? t('Missed') : EMPTY_TEXT) }),
      col.custom('skipped', 'Skipped Sites', { text: (l) => skippedText(l.skipped) || EMPTY_TEXT }),
      col.text('remark', 'Remark'),
      col.datetime('slot_at', 'Slot At'),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    rowActions: [{ label: 'Detail', onClick: (l) => openRule(l.rule_id) }],
  });
}
