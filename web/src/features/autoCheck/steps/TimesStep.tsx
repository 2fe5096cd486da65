import {
  Button,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { Add16Regular, Delete16Regular, Globe16Regular } from '@fluentui/react-icons';
import { Weekday } from '@shared/enums';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { WEEKDAYS, type WeekTimes } from '../ruleForm';
import { TimeSlotPicker } from '../TimeSlotPicker';
import { addSlot, canAddSlot, removeSlot, setSlot, slotProblems } from '../timeSlots';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  zone: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground2,
  },
  days: {
    display: 'grid',
    gridTemplateColumns: '120px 1fr',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  day: {
    display: 'contents',
  },
  dayName: {
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    fontWeight: tokens.fontWeightSemibold,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  slots: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  slot: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalXXS },
  none: { color: tokens.colorNeutralForeground3, alignSelf: 'center' },
});

export interface TimesStepProps {
  times: WeekTimes;
  zone: string;
  problem?: string;
  showProblem: boolean;
  onChange(times: WeekTimes): void;
}

/**
 * Step 4: per weekday its 'HH:mm' slots (24-hour, in the configured zone), each with delete; a day
 * gets a new slot only while every slot is valid, so an empty one must be filled or deleted first.
 */
export function TimesStep({ times, zone, problem, showProblem, onChange }: TimesStepProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const problems = slotProblems(times);
  const addable = canAddSlot(times);
  const blocking = Object.values(problems)[0];
  return (
    <div className={styles.root}>
      <Text className={styles.zone}>
        <Globe16Regular />
        {t('Times are 24-hour times in {zone}', { zone })}
      </Text>
      {showProblem && problem && !Object.keys(problems).length ? (
        <MessageBar intent="error">
          <MessageBarBody>{t(problem)}</MessageBarBody>
        </MessageBar>
      ) : null}
      <ul className={styles.days} aria-label={t('Times')}>
        {WEEKDAYS.map((day) => {
          const dayName = t(Weekday.label(day));
          const add = (
            <Button
              size="small"
              icon={<Add16Regular />}
              disabledFocusable={!addable}
              aria-label={t('Add time on {day}', { day: dayName })}
              onClick={() => onChange(addSlot(times, day))}
            >
              {t('Add')}
            </Button>
          );
          return (
            <li key={day} className={styles.day} aria-label={dayName}>
              <div className={styles.dayName}>{dayName}</div>
              <div className={styles.slots}>
                {times[day].length === 0 ? <Text className={styles.none}>{t('No Check Time')}</Text> : null}
                {times[day].map((value, i) => {
                  const message = problems[`${day}:${i}`];
                  const label = t('{day} time {n}', { day: dayName, n: i + 1 });
                  return (
                    // Slots have no id of their own: the index is the slot (deleting re-renders the rest).
                    <div key={`${day}-${i}`} className={styles.slot}>
                      <Field
                        validationMessage={message ? t(message) : undefined}
                        validationState={message ? 'error' : 'none'}
                      >
                        <TimeSlotPicker
                          aria-label={label}
                          value={value}
                          invalid={Boolean(message)}
                          onChange={(v) => onChange(setSlot(times, day, i, v))}
                        />
                      </Field>
                      <Tooltip content={t('Delete')} relationship="label">
                        <Button
                          size="small"
                          appearance="subtle"
                          icon={<Delete16Regular />}
                          aria-label={t('Delete {label}', { label })}
                          onClick={() => onChange(removeSlot(times, day, i))}
                        />
                      </Tooltip>
                    </div>
                  );
                })}
                {addable ? (
                  add
                ) : (
                  <Tooltip content={t(blocking ?? '')} relationship="description">
                    {add}
                  </Tooltip>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
