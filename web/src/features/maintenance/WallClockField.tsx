import { Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useT } from '@/i18n';
import type { MaintenanceForm } from './maintenanceForm';

const useStyles = makeStyles({
  field: { flexGrow: 1, minWidth: '160px' },
  pair: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

/** The texts of each edge of a one-off window: its field's label and its two inputs' names. */
const EDGES = {
  start: { label: 'Start ({zone})', date: 'Start date', time: 'Start time' },
  end: { label: 'End ({zone})', date: 'End date', time: 'End time' },
} as const;

type Edge = keyof typeof EDGES;

/**
 * One edge of a one-off window as a date and a time on the zone's wall clock (the browser's own
 * zone may differ, so no datetime-local input: its value would be read in the browser's zone).
 */
export function WallClockField({
  edge,
  zone,
  form,
  change,
  message,
}: {
  edge: Edge;
  zone: string;
  form: MaintenanceForm;
  change: <K extends keyof MaintenanceForm>(key: K, value: MaintenanceForm[K]) => void;
  message?: string;
}) {
  const t = useT();
  const styles = useStyles();
  const texts = EDGES[edge];
  const date = `${edge}_date` as const;
  const clock = `${edge}_clock` as const;
  return (
    <Field className={styles.field} label={t(texts.label, { zone })} validationMessage={message}>
      <div className={styles.pair}>
        <Input type="date" aria-label={t(texts.date)} value={form[date]} onChange={(_, d) => change(date, d.value)} />
        <Input type="time" aria-label={t(texts.time)} value={form[clock]} onChange={(_, d) => change(clock, d.value)} />
      </div>
    </Field>
  );
}
