// Step timings of a check: every navigation and site call runs inside `step`, which times it,
// bounds it by the per-step timeout and keeps the row for the raw log even when it fails.
import type { CheckStep } from '../../../shared/schemas/checkResults';
import { checkErrorMessage, StepTimeoutError } from './errors';

export interface StepOptions<T> {
  /** Overrides the check's per-step timeout. */
  timeoutMs?: number;
  /** Short text for the raw log from the step's value, e.g. 'HTTP 200'. */
  detail?: (value: T) => string | undefined;
}

export type StepFn = <T>(name: string, fn: () => Promise<T>, opts?: StepOptions<T>) => Promise<T>;

export interface StepRecorder {
  step: StepFn;
  /** Rows so far, in the order the steps started. */
  readonly steps: CheckStep[];
}

export function createStepRecorder(defaultTimeoutMs: number): StepRecorder {
  const steps: CheckStep[] = [];
  const step: StepFn = async (name, fn, opts = {}) => {
    const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
    const row: CheckStep = { name, ms: 0, ok: false };
    steps.push(row);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const work = fn();
    // The losing side of the race may reject later (e.g. when the context closes): keep that silent.
    work.catch(() => {});
    try {
      const value = await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StepTimeoutError(name, timeoutMs)), timeoutMs);
        }),
      ]);
      row.ok = true;
      const detail = opts.detail?.(value);
      if (detail) row.detail = detail;
      return value;
    } catch (err) {
      row.detail = checkErrorMessage(err);
      throw err;
    } finally {
      clearTimeout(timer);
      row.ms = Math.round(performance.now() - started);
    }
  };
  return { step, steps };
}
