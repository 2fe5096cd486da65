import { z } from 'zod';
import { type EnumValue, Process, TestMode, Weekday } from '../enums.js';
import type { MaintenanceBand } from './maintenance.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { TIME_PATTERN, ValidatorMessages } from '../validators.js';
import type { Checkpoints, Operation } from './checks.js';
import { Bounds, requiredText, type UserRef } from './common.js';

// Auto-check rules: weekly times at which a set of sites is checked by itself (spec sections 3, 4,
// 5, 7, 9; issue 14). Rule times are wall-clock times in the configured time zone
// (system config time_zone); shared/autoCheckSchedule.ts turns them into instants.

export type WeekdayValue = EnumValue<typeof Weekday>;

/** The spec's texts (section 5) and, where it names a rule without wording it, our own. */
export const RuleMessages = {
  name: 'Please enter rule name',
  sites: 'Please select sites first',
  siteMissing: (id: number) => `Site ${id} does not exist`,
  points: 'No point to check',
  times: 'Please add at least one check time',
  emptyTime: 'Fill or delete',
  badTime: 'Use a 24-hour time HH:mm',
  duplicateTime: (time: string) => `Duplicate time ${time}`,
  badDay: 'Weekday must be 1 (Monday) to 7 (Sunday)',
  duplicateDay: (day: number) => `Weekday ${day} is listed twice`,
  /** The web's warning on an invalid submit. */
  reconfirm: 'Please reconfirm you configuration again.',
  /** The web's question on leaving an unsaved new/edit page. */
  leave: 'Do you want to leave? you will lose all changes!',
  enable: 'enable must be true or false',
} as const;

/** Slots of one day at most: 24 × 60 would be every minute; nobody means that. */
export const MAX_TIMES_PER_DAY = 48;

/** One check time; empty is its own message because the web shows an empty slot as 'Fill or delete'. */
export const RuleTime = z
  .string({ error: RuleMessages.emptyTime })
  .trim()
  // An empty slot gets only its own text, not also the format's.
  .min(1, { message: RuleMessages.emptyTime, abort: true })
  .regex(TIME_PATTERN, RuleMessages.badTime);

export const RuleDay = z
  .object({
    day: z
      .number({ error: RuleMessages.badDay })
      .int(RuleMessages.badDay)
      .refine((d) => Weekday.has(d), RuleMessages.badDay)
      .transform((d) => d as WeekdayValue),
    times: z.array(RuleTime).max(MAX_TIMES_PER_DAY, ValidatorMessages.max(MAX_TIMES_PER_DAY)),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.times.forEach((t, i) => {
      if (seen.has(t)) ctx.addIssue({ code: 'custom', path: ['times', i], message: RuleMessages.duplicateTime(t) });
      seen.add(t);
    });
  });
export type RuleDay = z.infer<typeof RuleDay>;

/**
 * A rule's week: days 1 (Monday) to 7 (Sunday), each with its 'HH:mm' times. Days without times
 * are dropped; the result is sorted by day, then time, so equal weeks compare equal.
 */
export const RuleTimes = z
  .array(RuleDay, { error: RuleMessages.times })
  .max(7, RuleMessages.times)
  .superRefine((days, ctx) => {
    const seen = new Set<number>();
    days.forEach((d, i) => {
      if (seen.has(d.day))
        ctx.addIssue({ code: 'custom', path: [i, 'day'], message: RuleMessages.duplicateDay(d.day) });
      seen.add(d.day);
    });
    if (!days.some((d) => d.times.length)) ctx.addIssue({ code: 'custom', message: RuleMessages.times });
  })
  .transform((days) =>
    days
      .filter((d) => d.times.length)
      .map((d) => ({ day: d.day, times: [...d.times].sort() }))
      .sort((a, b) => a.day - b.day),
  );
export type RuleTimes = z.infer<typeof RuleTimes>;

/**
 * One checkpoint of a rule. The check engine's input says `point`; rules are read back as
 * `{process, modes}` (spec section 3) and the edit page sends them as read, so both are accepted.
 */
export const RulePoint = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !('point' in v) && 'process' in v
      ? { ...(v as object), point: (v as { process: unknown }).process }
      : v,
  z.object({
    point: z.number().refine((v) => Process.has(v), 'Unknown checkpoint'),
    modes: z
      .array(z.number().refine((v) => TestMode.has(v), 'Unknown test mode'))
      .max(Bounds.list, ValidatorMessages.max(Bounds.list))
      .default([]),
  }),
);
export type RulePoint = z.infer<typeof RulePoint>;

const RulePoints = z
  .array(RulePoint, { error: RuleMessages.points })
  .max(Bounds.list, ValidatorMessages.max(Bounds.list))
  .refine((points) => points.some((p) => p.modes.length > 0), RuleMessages.points);

const RuleSites = z
  .array(z.number({ error: RuleMessages.sites }).int().positive(), { error: RuleMessages.sites })
  .max(Bounds.ids, ValidatorMessages.max(Bounds.ids))
  .min(1, RuleMessages.sites)
  .transform((ids) => [...new Set(ids)]);

/** POST /auto-check/rules, and the full form of PUT /auto-check/rules/{id}. */
export const RuleBody = z.object({
  name: requiredText(RuleMessages.name).max(Bounds.name, ValidatorMessages.maxLength(Bounds.name)),
  sites: RuleSites,
  points: RulePoints,
  times: RuleTimes,
});
export type RuleBody = z.infer<typeof RuleBody>;
/** What the web form holds before parsing. */
export type RuleBodyInput = z.input<typeof RuleBody>;

export const EnableRuleBody = z.object({ enable: z.boolean({ error: RuleMessages.enable }) }).strict();
export const DeleteRuleBody = z.object({ delete: z.literal(1, { error: 'delete must be 1' }) }).strict();

/**
 * PUT /auto-check/rules/{id}: `{delete: 1}` (soft delete), `{enable}`, or the whole rule. The
 * form is chosen by the keys given, so a bad full rule gets its fields' own texts (a plain union
 * would answer only that no form matched).
 */
export const UpdateRuleBody = z
  .unknown()
  .transform((value, ctx): RuleBody | z.infer<typeof EnableRuleBody> | z.infer<typeof DeleteRuleBody> => {
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    const schema = keys.includes('delete')
      ? DeleteRuleBody
      : keys.length === 1 && keys[0] === 'enable'
        ? EnableRuleBody
        : RuleBody.strict();
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
export type UpdateRuleBody = z.infer<typeof UpdateRuleBody>;

// ---- Rows ----------------------------------------------------------------------------------

export const ruleListFields = {
  ...keyOrderFields,
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  enable: field.boolean({ sort: 'bounded', filter: 'key' }),
} as const satisfies ListFields;

/** GET /auto-check/rules, GET /auto-check/rules/{id}. */
export interface AutoCheckRule extends RowOf<typeof ruleListFields> {
  /** Site ids, as given (sites deleted since stay listed; the runs skip them). */
  sites: number[];
  checkpoints: Checkpoints;
  times: RuleTimes;
  /** The creator's nickname; null is SYSTEM. */
  creator: UserRef;
  updated_at: number;
  /** The next slot's instant (epoch ms) in the configured zone; null when disabled. */
  next_run: number | null;
}

/** Why a run left a site out. */
export const SkipReason = {
  Deleted: 'deleted',
  Disabled: 'disabled',
  NoAccount: 'no_account',
  /** Under a pause maintenance window at the slot's time (shared/schemas/maintenance.ts). */
  Maintenance: 'maintenance',
} as const;
export type SkipReason = (typeof SkipReason)[keyof typeof SkipReason];

export interface SkippedSite {
  site_id: number;
  /** Null when the site is gone entirely. */
  name: string | null;
  reason: SkipReason;
  /** The maintenance window that paused it (reason maintenance). */
  window?: { id: number; name: string };
}

export const autoLogListFields = {
  ...keyOrderFields,
  rule_id: field.number({ sort: 'bounded', filter: 'key' }),
  /** Seconds into the week of the slot: Monday 00:00 is 0, a day 86400 s (spec section 9). */
  week_stamp: field.number({ sort: 'bounded', filter: 'bounded' }),
  success: field.boolean({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;

/** GET /auto-check/rules/logs, GET /auto-check/rules/{id}/logs. */
export interface AutoLog extends RowOf<typeof autoLogListFields> {
  rule: { name: string } | null;
  /** The operation the run started; null when it started none (missed, or nothing to check). */
  operation_id: number | null;
  /** The slot's instant (epoch ms). */
  slot_at: number;
  /** The slot passed while the stack was down and was not run. */
  missed: boolean;
  skipped: SkippedSite[];
  remark: string;
}

/** GET /auto-check/rules/{id}/items: one row per site of the rule, with its state now. */
export interface RuleItem {
  id: number;
  name: string | null;
  url: string | null;
  enable: boolean;
  deleted: boolean;
  available_account_cnt: number;
}

/** The body the auto-check handler receives from a schedule (cloud) or the local scheduler. */
export const AutoCheckEvent = z.object({
  ruleId: z.number().int().positive(),
  weekStamp: z
    .number()
    .int()
    .min(0)
    .max(7 * 86400 - 1),
  /** The slot's instant in epoch ms (the local timer). */
  slotAt: z.number().int().optional(),
  /** The slot's instant as EventBridge Scheduler's `<aws.scheduler.scheduled-time>` (ISO 8601). */
  scheduledTime: z.string().optional(),
});
export type AutoCheckEvent = z.infer<typeof AutoCheckEvent>;

/** One (weekday, time) of the week; weekStamp is seconds since Monday 00:00. */
export interface Slot {
  day: WeekdayValue;
  /** 'HH:mm' */
  time: string;
  weekStamp: number;
}

/** One minute of the week calendar with the slots that start in it. */
export interface CalendarCell extends Slot {
  rules: { id: number; name: string; site_cnt: number }[];
  /** Sites the minute starts at once (one task per site). */
  site_cnt: number;
  /** More sites start in this minute than the checkers run at once. */
  crowd: boolean;
  /** Rounds of checkers the minute needs: 1 when it fits. */
  waves: number;
  /** Sites that wait for a free checker at the start. */
  queued: number;
}

/**
 * GET /auto-check/calendar: every enabled rule's slots on the wall-clock week of the configured
 * zone, one cell per minute with slots (shared/autoCheckSchedule.ts weekCalendar).
 */
export interface RuleCalendar {
  time_zone: string;
  /** Checks the checkers run at once: a cell with more sites than this queues. */
  concurrency: number;
  cells: CalendarCell[];
  /** The instant this week began (Monday 00:00 in the zone): one-off windows are placed on it. */
  week_start: number;
  /** The maintenance windows on this week, by day (shared/maintenanceWindows.ts windowBands). */
  maintenance: MaintenanceBand[];
}

/** POST /auto-check/rules/{id}/check: the operation it started and the sites it left out. */
export interface CheckNowReply {
  operation: Operation;
  skipped: SkippedSite[];
}
