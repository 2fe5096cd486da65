import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useRef, useState } from 'react';

const useStyles = makeStyles({
  root: { display: 'flex', minWidth: 0, minHeight: 0 },
  pane: { minWidth: 0, overflow: 'auto' },
  rest: { flexGrow: 1, flexBasis: 0, minWidth: 0, overflow: 'auto' },
  handle: {
    flexShrink: 0,
    width: '9px',
    cursor: 'col-resize',
    display: 'flex',
    justifyContent: 'center',
    touchAction: 'none',
    outlineStyle: 'none',
    '::before': {
      content: '""',
      width: '1px',
      height: '100%',
      backgroundColor: tokens.colorNeutralStroke2,
    },
    ':hover::before': { width: '3px', backgroundColor: tokens.colorBrandStroke1 },
    ':focus-visible::before': { width: '3px', backgroundColor: tokens.colorBrandStroke1 },
  },
  dragging: { userSelect: 'none' },
});

export interface SplitterProps {
  /** Width of the first pane as a percentage of the whole, at first. */
  initial: number;
  min: number;
  max: number;
  /** Accessible name of the handle. */
  label: string;
  first: ReactNode;
  second: ReactNode;
  className?: string;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/**
 * Two panes side by side with a handle between them (the WAI-ARIA window splitter: a focusable
 * separator whose value is the first pane's width in percent). Drag it, or use the arrow keys,
 * Home and End; the width stays within `min`..`max`.
 */
export function Splitter({ initial, min, max, label, first, second, className }: SplitterProps): ReactNode {
  const styles = useStyles();
  const [percent, setPercent] = useState(() => clamp(initial, min, max));
  const [dragging, setDragging] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  const moveTo = (clientX: number) => {
    const box = root.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPercent(clamp(((clientX - box.left) / box.width) * 100, min, max));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging) moveTo(e.clientX);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 5 : 1;
    const next =
      e.key === 'ArrowLeft'
        ? percent - step
        : e.key === 'ArrowRight'
          ? percent + step
          : e.key === 'Home'
            ? min
            : e.key === 'End'
              ? max
              : null;
    if (next === null) return;
    e.preventDefault();
    setPercent(clamp(next, min, max));
  };

  return (
    <div ref={root} className={mergeClasses(styles.root, dragging && styles.dragging, className)}>
      <div className={styles.pane} style={{ flexBasis: `${percent}%`, flexShrink: 0 }}>
        {first}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a focusable window splitter is a separator with a value (WAI-ARIA), which <hr> cannot be */}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuenow={Math.round(percent)}
        aria-valuemin={min}
        aria-valuemax={max}
        tabIndex={0}
        className={styles.handle}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => setDragging(false)}
        onPointerCancel={() => setDragging(false)}
        onKeyDown={onKeyDown}
      />
      <div className={styles.rest}>{second}</div>
    </div>
  );
}
