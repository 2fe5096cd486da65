// The wall clock of an instant in an IANA time zone, from the platform's zone data (Intl): the one
// place the console, the schedules and the dashboard's days read a zone's local time.

/** Building an Intl.DateTimeFormat costs far more than using one: one per zone. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface WallClock {
  year: number;
  /** 1-12. */
  month: number;
  /** Day of the month, 1-31. */
  date: number;
  /** Day of the week, 1-7: Monday to Sunday. */
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock fields of an instant in `zone`. */
export function wallClock(at: Date | number, zone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const p of formatOf(zone).formatToParts(new Date(at))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    date: Number(parts.day),
    day: WEEKDAYS.indexOf(parts.weekday) + 1,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Seconds since midnight on `zone`'s wall clock at an instant (whole seconds). */
export function secondOfDay(at: Date | number, zone: string): number {
  const w = wallClock(at, zone);
  return w.hour * 3600 + w.minute * 60 + w.second;
}

/** How far `zone`'s wall clock is ahead of UTC at an instant (ms; negative west of Greenwich). */
export function zoneOffset(at: number, zone: string): number {
  const w = wallClock(at, zone);
  const wholeSecond = at - (((at % 1000) + 1000) % 1000);
  return Date.UTC(w.year, w.month - 1, w.date, w.hour, w.minute, w.second) - wholeSecond;
}

/** True for a zone name Intl knows (IANA names and 'UTC'); Intl throws a RangeError otherwise. */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
