import { useState } from 'react';

/** Where the stepper is and which steps the user has left at least once. */
export interface StepState {
  current: number;
  left: ReadonlySet<number>;
}

export const startAt = (step = 0): StepState => ({ current: step, left: new Set() });

/** Moving to `to` counts as having left the current step (staying put does not). */
export function moveTo(state: StepState, to: number): StepState {
  if (to === state.current) return state;
  return { current: to, left: new Set([...state.left, state.current]) };
}

/** An invalid submit: every step counts as seen, so each invalid one shows its flag. */
export function leaveAll(state: StepState, count: number): StepState {
  return { ...state, left: new Set(Array.from({ length: count }, (_, i) => i)) };
}

/**
 * Spec section 4: a step is flagged as an error after it has been left once and is invalid. The
 * flag follows the step's validity afterwards (fixing it clears the flag at once).
 */
export function isFlagged(state: StepState, step: number, valid: boolean): boolean {
  return !valid && state.left.has(step);
}

/** The stepper's state with its moves; `valid[i]` says whether step i is valid now. */
export function useStepFlags(count: number, valid: readonly boolean[]) {
  const [state, setState] = useState(startAt);
  return {
    current: state.current,
    go: (to: number) => setState((s) => moveTo(s, Math.max(0, Math.min(count - 1, to)))),
    leaveAll: () => setState((s) => leaveAll(s, count)),
    flagged: (step: number) => isFlagged(state, step, valid[step] ?? true),
  };
}
