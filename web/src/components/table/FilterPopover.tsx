import { DATE_FORMAT, FIRST_DAY_OF_WEEK, PICKER_AUTO_CLOSE_MS, TIME_FORMAT } from '@/app/constants';
import { useT } from '@/i18n';
import {
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Radio,
  RadioGroup,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { DatePicker, type DatePickerProps } from '@fluentui/react-datepicker-compat';
import { Filter16Filled, Filter16Regular } from '@fluentui/react-icons';
import { NUMBER_OPS, type NumberOp } from '@shared/listQuery';
import dayjs from 'dayjs';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { DEFAULT_RECENT_RANGE, RECENT_RANGES, resolveRecentRange } from './recentRanges';
import type { Column, FilterInput, MomentKind } from './types';

const useStyles = makeStyles({
  surface: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '240px' },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
  options: {
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '260px',
    overflowY: 'auto',
    border: 'none',
    margin: 0,
    padding: 0,
  },
  active: { color: tokens.colorBrandForeground1 },
  op: { minWidth: '80px', width: '80px' },
});

/** The empty input of a column's filter. */
export function emptyFilterInput(column: Column<unknown>): FilterInput {
  if (column.filter === 'range') return { kind: 'range', start: null, end: null };
  switch (column.kind) {
    case 'boolean':
      return { kind: 'boolean', value: null };
    case 'enum':
      return { kind: 'enum', values: [] };
    case 'number':
      return { kind: 'number', op: '=', value: '' };
    case 'date':
    case 'datetime':
    case 'time':
      return { kind: 'moment', at: null };
    default:
      return { kind: 'text', value: '' };
  }
}

const timeOfDay = (hhmm: string): number | null => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 60_000 : null;
};
const hhmmOf = (ms: number | null, kind: MomentKind): string => {
  if (ms === null) return '';
  return kind === 'time' ? dayjs().startOf('day').add(ms, 'ms').format(TIME_FORMAT) : dayjs(ms).format(TIME_FORMAT);
};

const datePickerProps: Partial<DatePickerProps> = {
  formatDate: (d) => (d ? dayjs(d).format(DATE_FORMAT) : ''),
  parseDateFromString: (s) => (dayjs(s, DATE_FORMAT).isValid() ? dayjs(s).toDate() : null),
  allowTextInput: true,
  firstDayOfWeek: FIRST_DAY_OF_WEEK as DatePickerProps['firstDayOfWeek'],
};

/** A date, a datetime (date + HH:mm) or a time of day, as a local ms stamp (time: ms since midnight). */
function MomentInput({
  kind,
  label,
  value,
  onChange,
}: {
  kind: MomentKind;
  label: string;
  value: number | null;
  onChange(v: number | null): void;
}) {
  const t = useT();
  const styles = useStyles();
  const time = (
    <Input
      type="time"
      aria-label={kind === 'time' ? t(label) : `${t(label)} ${t('Time')}`}
      value={hhmmOf(value, kind)}
      onChange={(_, d) => {
        const tod = timeOfDay(d.value);
        if (kind === 'time') onChange(tod);
        else if (tod !== null)
          onChange(
            dayjs(value ?? Date.now())
              .startOf('day')
              .add(tod, 'ms')
              .valueOf(),
          );
      }}
    />
  );
  if (kind === 'time') return <Field label={t(label)}>{time}</Field>;
  return (
    <Field label={t(label)}>
      <div className={styles.row}>
        <DatePicker
          {...datePickerProps}
          aria-label={t(label)}
          placeholder={DATE_FORMAT}
          value={value === null ? null : new Date(value)}
          onSelectDate={(d) => {
            if (!d) return onChange(null);
            // Keep the picked time of day when only the date changes.
            const keep = kind === 'datetime' && value !== null ? value - dayjs(value).startOf('day').valueOf() : 0;
            onChange(dayjs(d).startOf('day').add(keep, 'ms').valueOf());
          }}
        />
        {kind === 'datetime' ? time : null}
      </div>
    </Field>
  );
}

function FilterEditor({
  column,
  input,
  onApply,
  onCommit,
  onPicked,
}: {
  column: Column<unknown>;
  input: FilterInput;
  /** Commit the filter now and close. */
  onApply(input: FilterInput): void;
  /** Commit the filter and stay open for more choices. */
  onCommit(input: FilterInput): void;
  /** A date/time choice: commit and let the popup close by itself shortly. */
  onPicked(input: FilterInput): void;
}) {
  const t = useT();
  const styles = useStyles();
  const [draft, setDraft] = useState<FilterInput>(input);
  const [recent, setRecent] = useState(DEFAULT_RECENT_RANGE.key);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  const applyButtons = (
    <div className={styles.actions}>
      <Button size="small" onClick={() => onApply(emptyFilterInput(column))}>
        {t('Clear')}
      </Button>
      <Button size="small" appearance="primary" type="submit">
        {t('Apply')}
      </Button>
    </div>
  );

  switch (draft.kind) {
    case 'text':
      return (
        <form className={styles.surface} onSubmit={submit}>
          <Field label={t(column.label)}>
            <Input autoFocus value={draft.value} onChange={(_, d) => setDraft({ kind: 'text', value: d.value })} />
          </Field>
          {applyButtons}
        </form>
      );
    case 'boolean': {
      const value = draft.value === null ? 'any' : String(draft.value);
      return (
        <Field label={t(column.label)}>
          <RadioGroup
            layout="horizontal"
            value={value}
            onChange={(_, d) => onApply({ kind: 'boolean', value: d.value === 'any' ? null : d.value === 'true' })}
          >
            <Radio value="any" label={t('Any')} />
            <Radio value="true" label={t('Yes')} />
            <Radio value="false" label={t('No')} />
          </RadioGroup>
        </Field>
      );
    }
    case 'enum': {
      const values = draft.values;
      return (
        // Not a Field: it would name every checkbox after the column.
        <fieldset className={styles.options} aria-label={t(column.label)}>
          {(column.enumDef?.options ?? []).map((o) => (
            <Checkbox
              key={String(o.value)}
              label={t(o.label)}
              checked={values.includes(o.value)}
              onChange={(_, d) => {
                const next = d.checked ? [...values, o.value] : values.filter((v) => v !== o.value);
                setDraft({ kind: 'enum', values: next });
                onCommit({ kind: 'enum', values: next });
              }}
            />
          ))}
        </fieldset>
      );
    }
    case 'number': {
      const d0 = draft;
      return (
        <form className={styles.surface} onSubmit={submit}>
          <Field label={t(column.label)}>
            <div className={styles.row}>
              <Dropdown
                className={styles.op}
                aria-label={t('Condition')}
                value={d0.op}
                selectedOptions={[d0.op]}
                onOptionSelect={(_, d) => setDraft({ ...d0, op: d.optionValue as NumberOp })}
              >
                {NUMBER_OPS.map((op) => (
                  <Option key={op} value={op}>
                    {op}
                  </Option>
                ))}
              </Dropdown>
              <Input
                autoFocus
                type="number"
                aria-label={t('Value')}
                value={d0.value}
                onChange={(_, d) => setDraft({ ...d0, value: d.value })}
              />
            </div>
          </Field>
          {applyButtons}
        </form>
      );
    }
    case 'moment':
      return (
        <div className={styles.surface}>
          <MomentInput
            kind={column.kind as MomentKind}
            label={column.label}
            value={draft.at}
            onChange={(at) => {
              setDraft({ kind: 'moment', at });
              onPicked({ kind: 'moment', at });
            }}
          />
          <div className={styles.actions}>
            <Button size="small" onClick={() => onApply(emptyFilterInput(column))}>
              {t('Clear')}
            </Button>
          </div>
        </div>
      );
    case 'range': {
      const d0 = draft;
      const kind = column.kind as MomentKind;
      const pick = (next: FilterInput & { kind: 'range' }) => {
        setDraft(next);
        if (next.start !== null && next.end !== null) onPicked(next);
      };
      return (
        <form className={styles.surface} onSubmit={submit}>
          {kind !== 'time' ? (
            <Field label={t('Recent')}>
              <div className={styles.row}>
                <Dropdown
                  aria-label={t('Recent')}
                  value={t(recent)}
                  selectedOptions={[recent]}
                  onOptionSelect={(_, d) => {
                    const range = RECENT_RANGES.find((r) => r.key === d.optionValue)!;
                    setRecent(range.key);
                    onPicked({ kind: 'range', ...resolveRecentRange(range), recent: range.key });
                  }}
                >
                  {RECENT_RANGES.map((r) => (
                    <Option key={r.key} value={r.key} text={t(r.key)}>
                      {t(r.key)}
                    </Option>
                  ))}
                </Dropdown>
                <Button
                  onClick={() => {
                    const range = RECENT_RANGES.find((r) => r.key === recent)!;
                    onPicked({ kind: 'range', ...resolveRecentRange(range), recent: range.key });
                  }}
                >
                  {t('Use')}
                </Button>
              </div>
            </Field>
          ) : null}
          <MomentInput
            kind={kind}
            label="Start"
            value={d0.start}
            onChange={(start) => pick({ kind: 'range', start, end: d0.end })}
          />
          <MomentInput
            kind={kind}
            label="End"
            value={d0.end}
            onChange={(end) => pick({ kind: 'range', start: d0.start, end })}
          />
          {applyButtons}
        </form>
      );
    }
  }
}

/** The filter button of a header cell and its popup; filled while the column filters. */
export function FilterPopover({
  column,
  input,
  active,
  onChange,
}: {
  column: Column<unknown>;
  input: FilterInput | undefined;
  active: boolean;
  onChange(input: FilterInput): void;
}) {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const label = `${t('Filter')} ${t(column.label)}`;
  return (
    <Popover
      open={open}
      onOpenChange={(_, d) => {
        clearTimeout(closeTimer.current);
        setOpen(d.open);
      }}
      withArrow
    >
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={label} relationship="label">
          <Button
            size="small"
            appearance="transparent"
            className={active ? styles.active : undefined}
            icon={active ? <Filter16Filled /> : <Filter16Regular />}
          />
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface aria-label={label}>
        <FilterEditor
          column={column}
          input={input ?? emptyFilterInput(column)}
          onApply={(next) => {
            onChange(next);
            setOpen(false);
          }}
          onCommit={onChange}
          onPicked={(next) => {
            onChange(next);
            // Spec section 9: pickers close themselves 1 s after a choice, so the user sees what was picked.
            clearTimeout(closeTimer.current);
            closeTimer.current = setTimeout(() => setOpen(false), PICKER_AUTO_CLOSE_MS);
          }}
        />
      </PopoverSurface>
    </Popover>
  );
}
