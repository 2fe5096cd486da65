import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { nextRuns, slotOfWeekStamp, slotsOf, weekStampAt } from '@shared/autoCheckSchedule';
import { Weekday } from '@shared/enums';
import { RuleBody } from '@shared/schemas/autoCheck';
import type { ReactNode } from 'react';
import { formatInZone } from '@/app/format';
import { Facts } from '@/components/display/Facts';
import { CheckpointList } from '@/features/checks/CheckpointList';
import { useT } from '@/i18n';
import { type RuleForm, weekToDays } from '../ruleForm';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** How many upcoming runs the overview lists. */
export const NEXT_RUNS_SHOWN = 5;

/** The next runs of a week of slots after `from`, in `zone`; none while the times are not valid. */
export function upcomingRuns(form: Pick<RuleForm, 'times'>, zone: string, from: number): Date[] {
  const times = RuleBody.shape.times.safeParse(weekToDays(form.times));
  return times.success ? nextRuns(times.data, zone, from, NEXT_RUNS_SHOWN) : [];
}

/** Step 5: everything the rule will do, with its next five runs. */
export function OverviewStep({
  form,
  names,
  zone,
  now = Date.now(),
}: {
  form: RuleForm;
  names: Record<number, string>;
  zone: string;
  now?: number;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const parsedTimes = RuleBody.shape.times.safeParse(weekToDays(form.times));
  const slots = parsedTimes.success ? slotsOf(parsedTimes.data) : [];
  const runs = upcomingRuns(form, zone, now);
  const none = (text: string) => <Text className={styles.muted}>{t(text)}</Text>;
  return (
    <div className={styles.root}>
      <Facts
        items={[
          { label: t('Rule Name'), value: form.name.trim() || none('/') },
          {
            label: t('Sites ({count})', { count: form.sites.length }),
            value: form.sites.length
              ? form.sites.map((id) => names[id] ?? `#${id}`).join(', ')
              : none('Please select sites first'),
            wide: true,
          },
          {
            label: t('Checkpoints'),
            value: <CheckpointList points={form.points.map((p) => ({ process: p.point, modes: p.modes }))} />,
            wide: true,
          },
          {
            label: t('Times ({zone})', { zone }),
            value: slots.length
              ? weekToDays(form.times)
                  .map((d) => `${t(Weekday.label(d.day))} ${[...d.times].sort().join(', ')}`)
                  .join(' · ')
              : none('No Check Time'),
            wide: true,
          },
        ]}
      />
      <section aria-label={t('Next runs')}>
        <Text weight="semibold">{t('Next {count} runs ({zone})', { count: NEXT_RUNS_SHOWN, zone })}</Text>
        {runs.length ? (
          <ol className={styles.list}>
            {runs.map((at) => (
              <li key={at.getTime()}>
                {t(Weekday.label(slotOfWeekStamp(weekStampAt(at, zone)).day))} {formatInZone(at.getTime(), zone)}
              </li>
            ))}
          </ol>
        ) : (
          <div>{none('No Check Time')}</div>
        )}
      </section>
    </div>
  );
}
