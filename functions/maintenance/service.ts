import type { ListQuery } from '../../shared/listQuery.js';
import { nextStart, windowBands, windowCovers, windowsInForce } from '../../shared/maintenanceWindows.js';
import {
  MAINTENANCE_HORIZON_MS,
  MAX_ENABLED_WINDOWS,
  type MaintenanceBand,
  type MaintenanceBody,
  MaintenanceMessages,
  type MaintenanceNowBody,
  type MaintenanceWindow,
  type UpdateMaintenanceBody,
} from '../../shared/schemas/maintenance.js';
import { cachedFor } from '../lib/cachedFor.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { ValidationError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { logger } from '../lib/logger.js';
import { liveSiteRefs } from '../sites/service.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { userRefs } from '../users/refs.js';
import { MaintenanceNotFoundError, MaintenanceWindowLimitError } from './errors.js';
import { type NewWindow, type StoredWindow, maintenanceStore } from './store.js';

// Maintenance windows (docs/auto-check.md "Maintenance windows"): CRUD for the screen, and the
// questions the rest of the product asks: which sites a rule slot must skip (pause), and whether a
// site's incident alerts are muted now (pause or silent).

const DAY_MS = 24 * 3_600_000;

/** A one-off window whose end has passed: it is retired (disabled, kept as history). */
const ended = (w: StoredWindow, now: number) => w.kind === 'once' && (w.end_at ?? 0) <= now;

/**
 * The enabled windows, read at most every 5 s per process: every rule slot and every incident
 * update asks, and windows change seldom. A save in this process takes effect at once. One-off
 * windows that have ended are retired by the read that finds them, so what is enabled, and read
 * here, is what is in force now or still to come (at most MAX_ENABLED_WINDOWS).
 */
const enabledWindows = cachedFor(
  async () => {
    const now = Date.now();
    const windows = await maintenanceStore().enabled();
    const over = windows.filter((w) => ended(w, now));
    // Retiring is a courtesy to the next read: a failure leaves the window enabled but out of force (it ended).
    await Promise.all(
      over.map((w) =>
        maintenanceStore()
          .update(w.id, { enabled: false })
          .catch((error: unknown) => logger.warn('an ended window was not retired', { id: w.id, error })),
      ),
    );
    return windows.filter((w) => !ended(w, now));
  },
  { ttlMs: 5_000 },
);

/** Drops this process's copy of the windows (a test that just saved some through another process). */
export const invalidateMaintenanceWindows = () => enabledWindows.invalidate();

async function present(rows: StoredWindow[], now = Date.now()): Promise<MaintenanceWindow[]> {
  const [refs, zone] = await Promise.all([
    userRefs(rows.map((r) => r.creator_id)),
    getSystemConfig().then((c) => c.time_zone),
  ]);
  return rows.map(({ creator_id, ...w }) => ({
    ...w,
    updated_at: w.updated_at ?? w.created_at,
    creator: refs.get(creator_id) ?? null,
    active: windowCovers(w, now, zone),
    next_start: nextStart(w, now, zone),
  }));
}

/** Each named site must exist (deleted ones do not); 'all' needs none. */
async function checkSites(sites: MaintenanceBody['sites']): Promise<void> {
  if (sites === 'all') return;
  const live = await liveSiteRefs(sites);
  const missing = sites.find((id) => !live.has(id));
  if (missing !== undefined) throw new ValidationError({ sites: MaintenanceMessages.siteMissing(missing) });
}

/**
 * A one-off window's bounds (issue 43): at most `maintenance.max_days` long and ending at most a year
 * from `now`, so no window silences alerts for good.
 */
async function checkBounds(body: MaintenanceBody, now: number): Promise<void> {
  if (body.kind !== 'once') return;
  const maxDays = (await getSystemConfig()).maintenance.max_days;
  if (body.end_at - body.start_at > maxDays * DAY_MS)
    throw new ValidationError({ end_at: MaintenanceMessages.tooLong(maxDays) });
  if (body.end_at > now + MAINTENANCE_HORIZON_MS) throw new ValidationError({ end_at: MaintenanceMessages.tooFar });
}

/**
 * Refuses a save that would enable one window more than MAX_ENABLED_WINDOWS: counted from a fresh
 * read (ended ones retired first), `except` the window being saved.
 */
async function checkEnabledRoom(except?: number): Promise<void> {
  enabledWindows.invalidate();
  const enabled = (await enabledWindows.get()).filter((w) => w.id !== except);
  if (enabled.length >= MAX_ENABLED_WINDOWS) throw new MaintenanceWindowLimitError(MAX_ENABLED_WINDOWS);
}

/** The stored form of a body: the other kind's fields cleared, so a window is one kind only. */
function toStored(body: MaintenanceBody): Omit<NewWindow, 'creator_id'> {
  const base = { name: body.name, sites: body.sites, mode: body.mode, enabled: body.enabled };
  return body.kind === 'once'
    ? {
        ...base,
        kind: 'once',
        start_at: body.start_at,
        end_at: body.end_at,
        days: null,
        start_time: null,
        end_time: null,
      }
    : {
        ...base,
        kind: 'weekly',
        start_at: null,
        end_at: null,
        days: body.days,
        start_time: body.start_time,
        end_time: body.end_time,
      };
}

export async function listMaintenance(query: ListQuery): Promise<ListOutcome<MaintenanceWindow>> {
  const page = await maintenanceStore().list(query);
  return { ...page, result: await present(page.result) };
}

export async function getMaintenance(id: number): Promise<MaintenanceWindow> {
  const row = await maintenanceStore().get(id);
  if (!row) throw new MaintenanceNotFoundError(id);
  return (await present([row]))[0];
}

export async function createMaintenance(
  body: MaintenanceBody,
  actor: Pick<AuthUser, 'id'> | null,
  now = Date.now(),
): Promise<MaintenanceWindow> {
  await checkSites(body.sites);
  await checkBounds(body, now);
  if (body.enabled) await checkEnabledRoom();
  const row = await maintenanceStore().create({ ...toStored(body), creator_id: actor?.id ?? null });
  enabledWindows.invalidate();
  return (await present([row]))[0];
}

export async function updateMaintenance(
  id: number,
  body: UpdateMaintenanceBody,
  now = Date.now(),
): Promise<MaintenanceWindow> {
  if ('kind' in body) {
    await checkSites(body.sites);
    await checkBounds(body, now);
  }
  if (body.enabled) await checkEnabledRoom(id);
  const row = await maintenanceStore().update(id, 'kind' in body ? toStored(body) : { enabled: body.enabled });
  enabledWindows.invalidate();
  return (await present([row]))[0];
}

export async function deleteMaintenance(id: number): Promise<null> {
  await maintenanceStore().remove(id);
  enabledWindows.invalidate();
  return null;
}

/**
 * The one-click window of a site (its row in the Sites list, the Telegram button): from now, for
 * `minutes`, named after the site. Pause by default: the rule slots leave the site alone while
 * someone works on it, and its incident stays quiet.
 */
export async function startMaintenanceNow(
  body: MaintenanceNowBody,
  actor: Pick<AuthUser, 'id'> | null,
  now = Date.now(),
): Promise<MaintenanceWindow> {
  const site = (await liveSiteRefs([body.site_id])).get(body.site_id);
  if (!site) throw new ValidationError({ site_id: MaintenanceMessages.siteMissing(body.site_id) });
  const hours = body.minutes % 60 === 0 ? `${body.minutes / 60} h` : `${body.minutes} min`;
  return createMaintenance(
    {
      name: `${site.name}: maintenance ${hours}`.slice(0, 100),
      sites: [site.id],
      mode: body.mode,
      enabled: true,
      kind: 'once',
      start_at: now,
      end_at: now + body.minutes * 60_000,
    },
    actor,
    now,
  );
}

/**
 * The Telegram button's and the incident action's window (issue 43): the incident's own window,
 * `windowId`, while it is an enabled one-off window of that site not yet ended, runs on to
 * `minutes` from now (within its bounds) instead of a new row; otherwise a new one starts.
 */
export async function extendMaintenanceNow(
  windowId: number | undefined,
  body: MaintenanceNowBody,
  actor: Pick<AuthUser, 'id'> | null,
  now = Date.now(),
): Promise<MaintenanceWindow> {
  const w = windowId === undefined ? undefined : await maintenanceStore().get(windowId);
  const own =
    w?.enabled &&
    w.kind === 'once' &&
    !ended(w, now) &&
    Array.isArray(w.sites) &&
    w.sites.join() === String(body.site_id);
  if (!w || !own) return startMaintenanceNow(body, actor, now);
  const maxDays = (await getSystemConfig()).maintenance.max_days;
  const latest = Math.min((w.start_at ?? now) + maxDays * DAY_MS, now + MAINTENANCE_HORIZON_MS);
  const end = Math.min(Math.max(w.end_at ?? now, now + body.minutes * 60_000), latest);
  if (end === w.end_at) return (await present([w], now))[0];
  const row = await maintenanceStore().update(w.id, { end_at: end });
  enabledWindows.invalidate();
  return (await present([row], now))[0];
}

/** The pause window each of `siteIds` is under at `at` (the sites a rule slot skips), by site. */
export async function pausedSites(siteIds: number[], at: number): Promise<Map<number, { id: number; name: string }>> {
  const windows = (await enabledWindows.get()).filter((w) => w.mode === 'pause');
  if (!windows.length) return new Map();
  const zone = (await getSystemConfig()).time_zone;
  const paused = new Map<number, { id: number; name: string }>();
  for (const id of siteIds) {
    const w = windowsInForce(windows, id, at, zone)[0];
    if (w) paused.set(id, { id: w.id, name: w.name });
  }
  return paused;
}

/** The window that mutes a site's incident alerts at `at` (pause or silent), or null. */
export async function maintenanceInForce(
  siteId: number,
  at = Date.now(),
): Promise<{ id: number; name: string; mode: StoredWindow['mode'] } | null> {
  const windows = await enabledWindows.get();
  if (!windows.length) return null;
  const w = windowsInForce(windows, siteId, at, (await getSystemConfig()).time_zone)[0];
  return w ? { id: w.id, name: w.name, mode: w.mode } : null;
}

/** Every enabled window on the wall-clock week of `at`, for the schedule calendar. */
export async function maintenanceBands(at = Date.now()): Promise<MaintenanceBand[]> {
  const [windows, zone] = await Promise.all([enabledWindows.get(), getSystemConfig().then((c) => c.time_zone)]);
  return windows.flatMap((w) => windowBands(w, zone, at));
}
