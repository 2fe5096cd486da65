import { makeStyles, Select, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  root: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXXS,
    border: 'none',
    margin: 0,
    padding: 0,
    minWidth: 0,
  },
  part: { minWidth: 0, width: '64px' },
  colon: { color: tokens.colorNeutralForeground3 },
});

const two = (n: number) => String(n).padStart(2, '0');
const choices = (count: number) => Array.from({ length: count }, (_, i) => two(i));
const HOURS = choices(24);
const HOURS_TO_END = choices(25);
const SIXTY = choices(60);

/** Seconds of the day -> 'HH:mm:ss' (24-hour). */
export function secondsToClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

export interface TimeOfDayPickerProps {
  /** Seconds since midnight. */
  value: number;
  onChange(seconds: number): void;
  /** Names the group and, with Hour/Minute/Second, each part (e.g. 'Start 1'). */
  label: string;
  /** Offers 24:00:00, the end of the day (range ends). */
  endOfDay?: boolean;
}

/**
 * A time of day with seconds, always 24-hour: hour, minute and second pickers. The browser's own
 * time input follows the machine's locale and shows AM/PM on an English one, which the spec rules out.
 */
export function TimeOfDayPicker({ value, onChange, label, endOfDay = false }: TimeOfDayPickerProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const h = Math.floor(value / 3600);
  const m = Math.floor((value % 3600) / 60);
  const s = value % 60;
  // 24:00:00 has no minutes or seconds past it.
  const atEnd = h === 24;
  const set = (nh: number, nm: number, ns: number) => onChange(nh === 24 ? 86_400 : nh * 3600 + nm * 60 + ns);
  const part = (name: string, current: number, options: string[], apply: (n: number) => void, disabled = false) => (
    <Select
      size="small"
      className={styles.part}
      disabled={disabled}
      aria-label={`${label} ${t(name)}`}
      value={two(current)}
      onChange={(_, d) => apply(Number(d.value))}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </Select>
  );
  return (
    <fieldset aria-label={label} className={styles.root}>
      {part('Hour', h, endOfDay ? HOURS_TO_END : HOURS, (n) => set(n, m, s))}
      <span className={styles.colon}>:</span>
      {part('Minute', m, SIXTY, (n) => set(h, n, s), atEnd)}
      <span className={styles.colon}>:</span>
      {part('Second', s, SIXTY, (n) => set(h, m, n), atEnd)}
    </fieldset>
  );
}
