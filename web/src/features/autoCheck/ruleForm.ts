import { Weekday } from '@shared/enums';
import {
  type AutoCheckRule,
  RuleBody,
  type RuleBodyInput,
  RuleMessages,
  type WeekdayValue,
} from '@shared/schemas/autoCheck';
import { fromProcesses, type PointModes } from '@/features/checks/CheckpointGrid';

// The rule form of the new and edit pages: what the five steps edit, each step's problems read from
// the shared RuleBody (the server parses with the same schema, so the page and the API agree on
// every text), and the body it sends.

export const WEEKDAYS = Weekday.options.map((o) => o.value) as WeekdayValue[];

export type WeekTimes = Record<WeekdayValue, string[]>;

export interface RuleForm {
  name: string;
  sites: number[];
  points: PointModes[];
  /** Every weekday with its slots in the order the user added them; '' is a slot not filled yet. */
  times: WeekTimes;
}

/** The five steps, in order; their titles are the i18n keys. */
export const STEPS = ['Name', 'Sites', 'Checkpoints', 'Times', 'Overview'] as const;
export const STEP = { name: 0, sites: 1, points: 2, times: 3, overview: 4 } as const;

export const emptyWeek = (): WeekTimes =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, [] as string[]])) as unknown as WeekTimes;

export const emptyRuleForm = (): RuleForm => ({ name: '', sites: [], points: [], times: emptyWeek() });

/** The edit page's form: points are read as {process, modes} (spec section 3). */
export function ruleToForm(rule: Pick<AutoCheckRule, 'name' | 'sites' | 'checkpoints' | 'times'>): RuleForm {
  const times = emptyWeek();
  for (const d of rule.times) times[d.day] = [...d.times];
  return { name: rule.name, sites: [...rule.sites], points: fromProcesses(rule.checkpoints.points), times };
}

/** Days that have slots, as the API takes them; empty slots stay in, so the schema can name them. */
export function weekToDays(times: WeekTimes): { day: WeekdayValue; times: string[] }[] {
  return WEEKDAYS.filter((d) => times[d].length > 0).map((day) => ({ day, times: times[day] }));
}

export const toBodyInput = (form: RuleForm): RuleBodyInput => ({
  name: form.name,
  sites: form.sites,
  points: form.points,
  times: weekToDays(form.times),
});

/** A slot's problem, keyed `${day}:${index}`; the step's own problem (no time at all) under ''. */
export type TimeProblems = Record<string, string>;

export function timeProblems(times: WeekTimes): TimeProblems {
  const days = weekToDays(times);
  const parsed = RuleBody.shape.times.safeParse(days);
  if (parsed.success) return {};
  const out: TimeProblems = {};
  for (const issue of parsed.error.issues) {
    const [dayIndex, key, slot] = issue.path;
    const day = typeof dayIndex === 'number' ? days[dayIndex]?.day : undefined;
    const at = key === 'times' && typeof slot === 'number' && day !== undefined ? `${day}:${slot}` : '';
    out[at] ??= issue.message;
  }
  return out;
}

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : (r.error?.issues[0]?.message ?? RuleMessages.reconfirm);

/** Each step's problem (undefined: the step is valid); the overview has none of its own. */
export function stepProblems(form: RuleForm): (string | undefined)[] {
  const times = timeProblems(form.times);
  return [
    firstMessage(RuleBody.shape.name.safeParse(form.name)),
    firstMessage(RuleBody.shape.sites.safeParse(form.sites)),
    firstMessage(RuleBody.shape.points.safeParse(form.points)),
    times[''] ?? Object.values(times)[0],
    undefined,
  ];
}

/** Whether two forms hold the same rule (what the leave prompt compares with the loaded one). */
export function sameForm(a: RuleForm, b: RuleForm): boolean {
  return JSON.stringify(toBodyInput(a)) === JSON.stringify(toBodyInput(b));
}
