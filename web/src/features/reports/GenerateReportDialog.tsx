import { Button, Field, Radio, RadioGroup } from '@fluentui/react-components';
import { DatePicker, type DatePickerProps } from '@fluentui/react-datepicker-compat';
import { DocumentAddRegular } from '@fluentui/react-icons';
import { dayOf } from '@shared/calendarDay';
import { type NewReport, ReportPeriod, type ReportPeriodValue } from '@shared/schemas/reports';
import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryKeys } from '@/api/queryKeys';
import { DATE_FORMAT } from '@/app/constants';
import { displayTimeZone } from '@/app/format';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { createReport, REPORTS } from './reportsApi';
import { checkReportForm, emptyReportForm, latestStart, type NewReportForm, START_HINTS } from './reportForm';

/** 'YYYY-MM-DD' as the picker's Date (local midnight) and back; a typed text that names no real day is null. */
function toDate(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = dayjs(day);
  return date.isValid() && date.format(DATE_FORMAT) === day ? date.toDate() : null;
}
const toDay = (date: Date | null | undefined) => (date ? dayjs(date).format(DATE_FORMAT) : '');

/** The calendar's weeks start on Monday, as a report's week does (DayOfWeek.Monday; the enum is not re-exported). */
const MONDAY = 1 as DatePickerProps['firstDayOfWeek'];

/** A start that suits `period` (a Monday, a 1st) is kept when the period changes; otherwise its latest. */
function startFor(period: ReportPeriodValue, start: string, today: string): string {
  return checkReportForm({ period, start }, today).errors ? latestStart(period, today) : start;
}

/** The Generate now table action: a past period's report, made now (never sent), then opened. */
export function GenerateReportDialog(): ReactNode {
  const t = useT();
  const client = useQueryClient();
  // Days of the configured zone: the one the server's periods are cut in.
  const today = dayOf(Date.now(), displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone);
  const dialog = useFormDialog<NewReportForm, Parameters<typeof createReport>[0], NewReport>({
    initial: () => emptyReportForm(today),
    check: (form) => checkReportForm(form, today),
    save: createReport,
    onDone: async (made) => {
      // The list kept in the cache lacks it: read again when next shown.
      await client.invalidateQueries({ queryKey: queryKeys.lists(REPORTS) });
      navigateTo(pathOf('reportDetail', { reportID: made.id }));
    },
  });
  const { form, change, errors } = dialog;
  return (
    <FormDialog
      state={dialog}
      modalType="alert"
      title={t('Generate report')}
      trigger={
        <Button appearance="primary" icon={<DocumentAddRegular />}>
          {t('Generate now')}
        </Button>
      }
    >
      <Field label={t('Period')} required validationMessage={errors.period ? t(errors.period) : undefined}>
        <RadioGroup
          layout="horizontal"
          value={form.period}
          onChange={(_, d) => {
            const period = d.value as ReportPeriodValue;
            change('period', period);
            change('start', startFor(period, form.start, today));
          }}
        >
          {ReportPeriod.options.map((o) => (
            <Radio key={o.value} value={o.value} label={t(o.label)} />
          ))}
        </RadioGroup>
      </Field>
      <Field
        label={t('Start')}
        required
        hint={t(START_HINTS[form.period])}
        validationMessage={errors.start ? t(errors.start) : undefined}
      >
        {/* No maxDate: the picker would put back a later typed day without a word; the form's rule says why. */}
        <DatePicker
          aria-label={t('Start')}
          placeholder={DATE_FORMAT}
          allowTextInput
          firstDayOfWeek={MONDAY}
          formatDate={(d) => toDay(d)}
          parseDateFromString={(s) => toDate(s.trim())}
          value={toDate(form.start)}
          onSelectDate={(d) => change('start', toDay(d))}
        />
      </Field>
    </FormDialog>
  );
}
