import { z } from 'zod';
import { defineEnum, type EnumValue, Weekday } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { TIME_PATTERN, ValidatorMessages } from '../validators.js';
import { Bounds, requiredText, type UserRef } from './common.js';

// Maintenance windows (issue 27, item 3): a time when some sites, or all, are being worked on.
// `pause`: rule slots skip those sites (and log them as skipped for maintenance); `silent`: checks
// run, but their incidents send nothing to Telegram. A window is one-off (two instants) or weekly
// (weekdays and a wall-clock time range in the configured zone; an end at or before the start runs
// past midnight into the next day). Rules: shared/maintenanceWindows.ts.

export const MaintenanceMode = defineEnum({ Pause: ['pause', 'Pause'], Silent: ['silent', 'Silent'] });
export type MaintenanceModeValue = EnumValue<typeof MaintenanceMode>;

export const MaintenanceKind = defineEnum({ Once: ['once', 'One-off'], Weekly: ['weekly', 'Weekly'] });
export type MaintenanceKindValue = EnumValue<typeof MaintenanceKind>;
type WeekdayValue = EnumValue<typeof Weekday>;

export const MaintenanceMessages = {
  name: 'Please enter window name',
  sites: 'Please select sites first',
  siteMissing: (id: number) => `Site ${id} does not exist`,
  mode: 'Mode must be pause or silent',
  kind: 'Kind must be once or weekly',
  startAt: 'Please choose the start',
  endAt: 'Please choose the end',
  endBeforeStart: 'The end must be after the start',
  days: 'Choose at least one weekday',
  badDay: 'Weekday must be 1 (Monday) to 7 (Sunday)',
  badTime: 'Use a 24-hour time HH:mm',
  sameTimes: 'The start and the end must differ',
  enabled: 'enabled must be true or false',
  minutes: 'Minutes must be 1 to 1440',
  tooLong: (days: number) => `A window lasts at most ${days} days`,
  tooFar: 'A window ends at most a year ahead',
  tooMany: (max: number) => `At most ${max} maintenance windows can be enabled at once.`,
} as const;

/** Enabled windows at once at most (issue 43): every rule slot and incident sync reads them all. */
export const MAX_ENABLED_WINDOWS = 100;
/** No window ends further ahead than this from when it is saved. */
export const MAINTENANCE_HORIZON_MS = 365 * 24 * 3_600_000;

/** How long the one-click window of a site's row (and of Telegram's button) lasts, by default. */
export const QUICK_MAINTENANCE_MINUTES = 60;

const Stamp = (message: string) => z.number({ error: message }).int(message).min(0, message);
const Time = z.string({ error: MaintenanceMessages.badTime }).trim().regex(TIME_PATTERN, MaintenanceMessages.badTime);
const Day = z
  .number({ error: MaintenanceMessages.badDay })
  .int(MaintenanceMessages.badDay)
  .refine((d) => Weekday.has(d), MaintenanceMessages.badDay)
  .transform((d) => d as WeekdayValue);

/** Site ids, or 'all' (every site, also those added later). */
export const MaintenanceSites = z.union(
  [
    z.literal('all'),
    z
      .array(z.number({ error: MaintenanceMessages.sites }).int().positive(), { error: MaintenanceMessages.sites })
      .min(1, MaintenanceMessages.sites)
      .max(Bounds.ids, ValidatorMessages.max(Bounds.ids))
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
  ],
  { error: MaintenanceMessages.sites },
);

/**
 * POST /maintenance and the whole form of PUT /maintenance/{id}. Flat, with the kind's own fields
 * checked by kind, so a refusal names the field (`end_at`, `days`) rather than "no form matched".
 */
export const MaintenanceBody = z
  .object({
    name: requiredText(MaintenanceMessages.name).max(Bounds.name, ValidatorMessages.maxLength(Bounds.name)),
    sites: MaintenanceSites,
    mode: z.enum(['pause', 'silent'], { error: MaintenanceMessages.mode }),
    kind: z.enum(['once', 'weekly'], { error: MaintenanceMessages.kind }),
    start_at: Stamp(MaintenanceMessages.startAt).nullish(),
    end_at: Stamp(MaintenanceMessages.endAt).nullish(),
    days: z.array(Day, { error: MaintenanceMessages.days }).max(7, MaintenanceMessages.days).nullish(),
    start_time: Time.nullish(),
    end_time: Time.nullish(),
    enabled: z.boolean({ error: MaintenanceMessages.enabled }).default(true),
  })
  .strict()
  .superRefine((b, ctx) => {
    const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (b.kind === 'once') {
      if (b.start_at === null || b.start_at === undefined) need('start_at', MaintenanceMessages.startAt);
      if (b.end_at === null || b.end_at === undefined) need('end_at', MaintenanceMessages.endAt);
      else if (typeof b.start_at === 'number' && b.end_at <= b.start_at)
        need('end_at', MaintenanceMessages.endBeforeStart);
    } else {
      if (!b.days?.length) need('days', MaintenanceMessages.days);
      if (!b.start_time) need('start_time', MaintenanceMessages.badTime);
      if (!b.end_time) need('end_time', MaintenanceMessages.badTime);
      else if (b.start_time === b.end_time) need('end_time', MaintenanceMessages.sameTimes);
    }
  })
  .transform((b) => ({
    name: b.name,
    sites: b.sites,
    mode: b.mode as MaintenanceModeValue,
    enabled: b.enabled,
    ...(b.kind === 'once'
      ? { kind: 'once' as const, start_at: b.start_at as number, end_at: b.end_at as number }
      : {
          kind: 'weekly' as const,
          days: [...new Set(b.days ?? [])].sort((x, y) => x - y),
          start_time: b.start_time as string,
          end_time: b.end_time as string,
        }),
  }));
export type MaintenanceBody = z.output<typeof MaintenanceBody>;
export type MaintenanceBodyInput = z.input<typeof MaintenanceBody>;

export const EnableMaintenanceBody = z.object({ enabled: z.boolean({ error: MaintenanceMessages.enabled }) }).strict();

/** PUT /maintenance/{id}: `{enabled}`, or the whole window (chosen by the keys given, as rules do). */
export const UpdateMaintenanceBody = z
  .unknown()
  .transform((value, ctx): MaintenanceBody | z.infer<typeof EnableMaintenanceBody> => {
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    const schema = keys.length === 1 && keys[0] === 'enabled' ? EnableMaintenanceBody : MaintenanceBody;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
export type UpdateMaintenanceBody = z.output<typeof UpdateMaintenanceBody>;

/** POST /maintenance/now: the one-click window of one site, from now (pause, 1 h unless given). */
export const MaintenanceNowBody = z
  .object({
    site_id: z.number({ error: MaintenanceMessages.sites }).int().positive(),
    minutes: z
      .number({ error: MaintenanceMessages.minutes })
      .int(MaintenanceMessages.minutes)
      .min(1, MaintenanceMessages.minutes)
      .max(1440, MaintenanceMessages.minutes)
      .default(QUICK_MAINTENANCE_MINUTES),
    mode: z.enum(['pause', 'silent'], { error: MaintenanceMessages.mode }).default('pause'),
  })
  .strict();
export type MaintenanceNowBody = z.output<typeof MaintenanceNowBody>;

/** A window's row: what a list may do with each field. */
export const maintenanceListFields = {
  ...keyOrderFields,
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  mode: field.enum(MaintenanceMode, { sort: 'bounded', filter: 'bounded' }),
  kind: field.enum(MaintenanceKind, { sort: 'bounded', filter: 'bounded' }),
  enabled: field.boolean({ sort: 'bounded', filter: 'key' }),
  start_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  end_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  sites: field.shown<number[] | 'all'>(),
  days: field.shown<WeekdayValue[] | null>(),
  start_time: field.text<string | null>(),
  end_time: field.text<string | null>(),
} as const satisfies ListFields;

/** GET /maintenance, GET /maintenance/{id}. */
export interface MaintenanceWindow extends RowOf<typeof maintenanceListFields> {
  creator: UserRef;
  updated_at: number;
  /** In force now. */
  active: boolean;
  /** When it next begins (epoch ms), or when the one in force began; null when it never will again. */
  next_start: number | null;
}

/**
 * One window's share of a day on the wall-clock week calendar: minutes from `start` to `end`
 * (exclusive, at most 1440) of weekday `day`.
 */
export interface MaintenanceBand {
  window_id: number;
  name: string;
  mode: MaintenanceModeValue;
  /** A weekly window's bands recur every week; a one-off window's lie on this week only. */
  kind: MaintenanceKindValue;
  sites: number[] | 'all';
  day: WeekdayValue;
  start: number;
  end: number;
}
