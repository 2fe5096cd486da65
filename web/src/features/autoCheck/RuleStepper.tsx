import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { CheckmarkCircle20Filled, ErrorCircle20Filled } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    margin: 0,
    padding: 0,
    counterReset: 'step',
  },
  item: { display: 'flex', alignItems: 'center', flex: '1 1 150px', minWidth: 0 },
  button: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    width: '100%',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    background: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground2,
    cursor: 'pointer',
    textAlign: 'left',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  current: {
    border: `1px solid ${tokens.colorBrandStroke1}`,
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
    boxShadow: `inset 0 -3px 0 ${tokens.colorBrandStroke1}`,
  },
  flagged: {
    border: `1px solid ${tokens.colorPaletteRedBorder2}`,
    color: tokens.colorPaletteRedForeground1,
    backgroundColor: tokens.colorPaletteRedBackground1,
  },
  number: {
    display: 'inline-grid',
    placeItems: 'center',
    width: '24px',
    height: '24px',
    flexShrink: 0,
    borderRadius: '50%',
    backgroundColor: tokens.colorNeutralBackground3,
    fontSize: tokens.fontSizeBase200,
  },
  numberCurrent: { backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand },
  texts: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  problem: { fontSize: tokens.fontSizeBase200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  done: { color: tokens.colorPaletteGreenForeground1 },
});

export interface StepView {
  title: string;
  /** Shown with the error flag (spec section 4: the step was left once and is invalid). */
  flagged: boolean;
  problem?: string;
  /** Valid and already seen: a tick. */
  done: boolean;
}

/** The step headers of the rule stepper; any step can be opened directly. */
export function RuleStepper({
  steps,
  current,
  onGo,
}: {
  steps: StepView[];
  current: number;
  onGo(step: number): void;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <nav aria-label={t('Steps')}>
      <ol className={styles.list}>
        {steps.map((s, i) => {
          const isCurrent = i === current;
          return (
            <li key={s.title} className={styles.item}>
              <button
                type="button"
                className={mergeClasses(styles.button, isCurrent && styles.current, s.flagged && styles.flagged)}
                aria-current={isCurrent ? 'step' : undefined}
                aria-invalid={s.flagged || undefined}
                data-flagged={s.flagged || undefined}
                title={s.flagged ? t(s.problem ?? '') : undefined}
                onClick={() => onGo(i)}
              >
                {s.flagged ? (
                  <ErrorCircle20Filled aria-label={t('Error')} />
                ) : s.done && !isCurrent ? (
                  <CheckmarkCircle20Filled className={styles.done} aria-hidden />
                ) : (
                  <span className={mergeClasses(styles.number, isCurrent && styles.numberCurrent)} aria-hidden>
                    {i + 1}
                  </span>
                )}
                <span className={styles.texts}>
                  <Text weight={isCurrent ? 'semibold' : 'regular'}>
                    {i + 1}. {t(s.title)}
                  </Text>
                  {s.flagged && s.problem ? <span className={styles.problem}>{t(s.problem)}</span> : null}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
