// The window dialog's form: what the inputs hold (dates and times on the configured zone's wall
// clock), turned into the API body and checked with the server's own schema (shared/schemas).
import { wallClockInstant } from '@shared/autoCheckSchedule';
import {
  MaintenanceBody,
  type MaintenanceBodyInput,
  type MaintenanceKindValue,
  type MaintenanceModeValue,
  type MaintenanceWindow,
} from '@shared/schemas/maintenance';
import { formatInZone } from '@/app/format';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormCheck, FormErrors } from '@/components/dialog/useFormDialog';

export interface MaintenanceForm {
  name: string;
  all_sites: boolean;
  sites: number[];
  mode: MaintenanceModeValue;
  kind: MaintenanceKindValue;
  /** One-off: 'YYYY-MM-DD' and 'HH:mm' on the zone's wall clock. */
  start_date: string;
  start_clock: string;
  end_date: string;
  end_clock: string;
  /** Weekly. */
  days: number[];
  start_time: string;
  end_time: string;
  enabled: boolean;
}

/** 'YYYY-MM-DD' and 'HH:mm' of an instant in `zone`. */
function split(ms: number | null | undefined, zone: string): [string, string] {
  if (typeof ms !== 'number') return ['', ''];
  const [date, time] = formatInZone(ms, zone).split(' ');
  return [date, time.slice(0, 5)];
}

/** A new window starts as one hour from the next full hour, pausing the chosen sites. */
export function emptyMaintenanceForm(zone: string, now = Date.now()): MaintenanceForm {
  const start = Math.ceil(now / 3_600_000) * 3_600_000;
  const [start_date, start_clock] = split(start, zone);
  const [end_date, end_clock] = split(start + 3_600_000, zone);
  return {
    name: '',
    all_sites: false,
    sites: [],
    mode: 'pause',
    kind: 'once',
    start_date,
    start_clock,
    end_date,
    end_clock,
    days: [],
    start_time: '',
    end_time: '',
    enabled: true,
  };
}

export function maintenanceFormOf(w: MaintenanceWindow, zone: string): MaintenanceForm {
  const [start_date, start_clock] = split(w.start_at, zone);
  const [end_date, end_clock] = split(w.end_at, zone);
  return {
    name: w.name,
    all_sites: w.sites === 'all',
    sites: w.sites === 'all' ? [] : w.sites,
    mode: w.mode,
    kind: w.kind,
    start_date,
    start_clock,
    end_date,
    end_clock,
    days: w.days ?? [],
    start_time: w.start_time ?? '',
    end_time: w.end_time ?? '',
    enabled: w.enabled,
  };
}

export function maintenanceBodyOf(form: MaintenanceForm, zone: string): MaintenanceBodyInput {
  const base = {
    name: form.name,
    sites: form.all_sites ? ('all' as const) : form.sites,
    mode: form.mode,
    enabled: form.enabled,
  };
  if (form.kind === 'weekly')
    return { ...base, kind: 'weekly', days: form.days, start_time: form.start_time, end_time: form.end_time };
  return {
    ...base,
    kind: 'once',
    start_at: wallClockInstant(form.start_date, form.start_clock, zone),
    end_at: wallClockInstant(form.end_date, form.end_clock, zone),
  };
}

/** The server's rules on the body; a one-off instant's message goes on its date field. */
export function checkMaintenance(
  form: MaintenanceForm,
  zone: string,
): FormCheck<MaintenanceForm, MaintenanceBodyInput> {
  const body = maintenanceBodyOf(form, zone);
  const checked = checkWith<MaintenanceForm, typeof MaintenanceBody>(MaintenanceBody, body);
  if (!checked.errors) return { body };
  const { start_at, end_at, ...rest } = checked.errors as Record<string, string>;
  const errors: FormErrors<MaintenanceForm> = { ...rest };
  if (start_at) errors.start_date = start_at;
  if (end_at) errors.end_date = end_at;
  return { errors };
}
