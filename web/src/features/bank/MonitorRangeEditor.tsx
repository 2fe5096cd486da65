import { Badge, Button, makeStyles, Text, Tooltip, tokens } from '@fluentui/react-components';
import { Add16Regular, Delete16Regular, Globe16Regular } from '@fluentui/react-icons';
import { DAY_SECONDS, MAX_MONITOR_RANGES } from '@shared/schemas/bank';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { checkRanges, type Range } from './bankForms';
import { TimeOfDayPicker } from './TimeOfDayPicker';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  rows: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0 },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  index: { width: '20px', color: tokens.colorNeutralForeground3, textAlign: 'right' },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200, paddingLeft: '28px' },
  empty: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
});

const HOUR = 3600;

/** A new row starts where the last one ends, an hour long (or the whole day when there is none). */
function nextRange(ranges: readonly Range[]): Range {
  const lastEnd = Math.max(0, ...ranges.map((r) => r[1]));
  if (ranges.length === 0) return [0, DAY_SECONDS];
  const start = Math.min(lastEnd, DAY_SECONDS - HOUR);
  return [start, Math.min(start + HOUR, DAY_SECONDS)];
}

export interface MonitorRangeEditorProps {
  /** The saved ranges, [start, end] seconds of the day in `timeZone`. */
  value: readonly Range[];
  timeZone: string;
  /** Sends the new ranges; rejects when the server refused them (its tip is shown). */
  onSave(ranges: Range[]): Promise<unknown>;
}

/**
 * The monitor ranges of an account: rows of start and end (24-hour, with seconds) in the configured
 * time zone, shown beside them. Saving ranges equal to the saved ones does nothing; ranges that end
 * before they start or overlap are refused with the shared rule's message on their row.
 */
export function MonitorRangeEditor({ value, timeZone, onSave }: MonitorRangeEditorProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [edited, setEdited] = useState<Range[]>(() => value.map(([s, e]) => [s, e]));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);

  const setRow = (i: number, range: Range) => {
    setEdited((rs) => rs.map((r, k) => (k === i ? range : r)));
    setErrors({});
  };
  const save = async () => {
    const checked = checkRanges(value, edited);
    if (checked.kind === 'unchanged') return;
    if (checked.kind === 'invalid') {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await onSave(checked.ranges);
      setEdited(checked.ranges);
    } catch {
      // 'Update Monitor Range failed.' has been shown with the reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.root}>
      <div className={styles.head}>
        <Text weight="semibold">{t('Monitor Range')}</Text>
        <Tooltip content={t('Monitor ranges are in the configured time zone.')} relationship="description">
          <Badge appearance="outline" shape="rounded" icon={<Globe16Regular />}>
            {t('Time zone {zone}', { zone: timeZone })}
          </Badge>
        </Tooltip>
      </div>
      {edited.length === 0 ? (
        <Text className={styles.empty}>{t('No range: the account is never polled.')}</Text>
      ) : (
        <ol className={styles.rows} aria-label={t('Monitor Range')}>
          {edited.map(([start, end], i) => {
            const n = i + 1;
            return (
              <li key={i} style={{ listStyle: 'none' }}>
                <div className={styles.row}>
                  <span className={styles.index}>{n}</span>
                  <TimeOfDayPicker label={t('Start {n}', { n })} value={start} onChange={(s) => setRow(i, [s, end])} />
                  <span>–</span>
                  <TimeOfDayPicker
                    label={t('End {n}', { n })}
                    value={end}
                    endOfDay
                    onChange={(e) => setRow(i, [start, e])}
                  />
                  <Tooltip content={t('Remove range {n}', { n })} relationship="label">
                    <Button
                      appearance="subtle"
                      icon={<Delete16Regular />}
                      onClick={() => {
                        setEdited((rs) => rs.filter((_, k) => k !== i));
                        setErrors({});
                      }}
                    />
                  </Tooltip>
                </div>
                {errors[i] ? (
                  <div role="alert" className={styles.error}>
                    {t(errors[i])}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {errors[-1] ? (
        <div role="alert" className={styles.error}>
          {t(errors[-1])}
        </div>
      ) : null}
      <div className={styles.actions}>
        <Button
          icon={<Add16Regular />}
          disabled={edited.length >= MAX_MONITOR_RANGES}
          onClick={() => {
            setEdited((rs) => [...rs, nextRange(rs)]);
            setErrors({});
          }}
        >
          {t('Add range')}
        </Button>
        <Button
          onClick={() => {
            setEdited(value.map(([s, e]) => [s, e]));
            setErrors({});
          }}
        >
          {t('Reset')}
        </Button>
        <Button appearance="primary" disabled={busy} onClick={() => void save()}>
          {t('Save')}
        </Button>
      </div>
    </div>
  );
}
