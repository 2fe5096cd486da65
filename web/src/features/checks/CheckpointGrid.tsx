import { Checkbox, type CheckboxProps, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Process, TestMode } from '@shared/enums';
import type { ProcessValue, TestModeValue } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** The API's input shape: a point with the test modes chosen for it (spec section 3). */
export interface PointModes {
  point: ProcessValue;
  modes: TestModeValue[];
}

const POINTS = Process.options.map((o) => o.value);
const MODES = TestMode.options.map((o) => o.value);

type Tri = CheckboxProps['checked'];

/** Checked when every box under it is, empty when none, 'mixed' in between (spec section 4). */
function stateOf(on: number, of: number): Tri {
  return on === 0 ? false : on === of ? true : 'mixed';
}

function has(value: readonly PointModes[], point: ProcessValue, mode: TestModeValue): boolean {
  return value.some((p) => p.point === point && p.modes.includes(mode));
}

/**
 * The value with a set of (point, mode) boxes turned on or off. Points keep the enum order and
 * modes the TestMode order; a point with no mode left is dropped, so the value is what gets sent.
 */
function setBoxes(
  value: readonly PointModes[],
  boxes: ReadonlyArray<readonly [ProcessValue, TestModeValue]>,
  on: boolean,
): PointModes[] {
  const chosen = new Set(value.flatMap((p) => p.modes.map((m) => `${p.point}:${m}`)));
  for (const [p, m] of boxes) {
    if (on) chosen.add(`${p}:${m}`);
    else chosen.delete(`${p}:${m}`);
  }
  return POINTS.map((point) => ({ point, modes: MODES.filter((m) => chosen.has(`${point}:${m}`)) })).filter(
    (p) => p.modes.length > 0,
  );
}

/** Turns the read side's `{process, modes}` into the grid's value. */
export function fromProcesses(points: readonly { process: ProcessValue; modes: readonly TestModeValue[] }[]) {
  return setBoxes(
    [],
    points.flatMap((p) => p.modes.map((m) => [p.process, m] as const)),
    true,
  );
}

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: `minmax(180px, 1fr) repeat(${MODES.length + 1}, minmax(72px, max-content))`,
    alignItems: 'center',
    margin: 0,
    padding: 0,
    minWidth: 0,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  cell: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minHeight: '36px',
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  label: { justifyContent: 'flex-start', paddingLeft: tokens.spacingHorizontalM },
  head: {
    borderTop: 'none',
    backgroundColor: tokens.colorNeutralBackground3,
    fontWeight: tokens.fontWeightSemibold,
  },
  allColumn: { backgroundColor: tokens.colorNeutralBackground2 },
});

export interface CheckpointGridProps {
  value: readonly PointModes[];
  onChange?(value: PointModes[]): void;
  /** Shows the choice without letting it change (the read-only checkpoints dialog). */
  readOnly?: boolean;
}

/** Points against test modes, with ALL boxes per point, per mode and overall (spec sections 2 and 4). */
export function CheckpointGrid({ value, onChange, readOnly = false }: CheckpointGridProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const count = (pts: readonly ProcessValue[], modes: readonly TestModeValue[]) =>
    pts.reduce((n, p) => n + modes.filter((m) => has(value, p, m)).length, 0);
  const boxesOf = (pts: readonly ProcessValue[], modes: readonly TestModeValue[]) =>
    pts.flatMap((p) => modes.map((m) => [p, m] as const));
  // A mixed or empty group is filled by a click; only a full one is cleared.
  const toggle = (pts: readonly ProcessValue[], modes: readonly TestModeValue[]) => {
    const full = count(pts, modes) === pts.length * modes.length;
    onChange?.(setBoxes(value, boxesOf(pts, modes), !full));
  };
  const box = (
    label: string,
    checked: Tri,
    pts: readonly ProcessValue[],
    modes: readonly TestModeValue[],
    visible = false,
  ) => (
    <Checkbox
      {...(visible ? { label } : { 'aria-label': label })}
      checked={checked}
      disabled={readOnly}
      onChange={() => toggle(pts, modes)}
    />
  );
  const cell = (extra?: string) => mergeClasses(styles.cell, extra);

  return (
    <fieldset className={styles.grid} aria-label={t('Checkpoints')}>
      <div className={cell(mergeClasses(styles.head, styles.label))}>{t('Checkpoint')}</div>
      <div className={cell(mergeClasses(styles.head, styles.allColumn))}>
        {box(t('ALL'), stateOf(count(POINTS, MODES), POINTS.length * MODES.length), POINTS, MODES, true)}
      </div>
      {TestMode.options.map((m) => (
        <div key={m.value} className={cell(styles.head)}>
          {box(m.label, stateOf(count(POINTS, [m.value]), POINTS.length), POINTS, [m.value], true)}
        </div>
      ))}
      {Process.options.map((p) => {
        const name = t(p.label);
        return (
          <div key={p.value} style={{ display: 'contents' }}>
            <div className={cell(styles.label)}>{name}</div>
            <div className={cell(styles.allColumn)}>
              {box(`${name}: ${t('ALL')}`, stateOf(count([p.value], MODES), MODES.length), [p.value], MODES)}
            </div>
            {TestMode.options.map((m) => (
              <div key={m.value} className={cell()}>
                {box(`${name}: ${m.label}`, has(value, p.value, m.value), [p.value], [m.value])}
              </div>
            ))}
          </div>
        );
      })}
    </fieldset>
  );
}
