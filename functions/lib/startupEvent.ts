// What a `startup` entry (registry.ts) receives from the local runner, once the engines are up.
//
// `time` is when this start began, before anything was seeded or served. The local queue engine
// keeps nothing across a restart, so work created before that instant lost its queue message and
// a start's requeue sends it again; work created since (the demo seeds, the first requests) had
// its message sent, and sending it again would only make a duplicate for the consumer to drop.

export interface StartupEvent {
  source: 'patrol.local';
  'detail-type': 'Startup';
  time: string;
}

export function startupEvent(began = Date.now()): StartupEvent {
  return { source: 'patrol.local', 'detail-type': 'Startup', time: new Date(began).toISOString() };
}

/** When the start began, in ms; now for a call without an event (a hand run). */
export function startBegan(event?: Partial<StartupEvent>): number {
  const began = event?.time ? Date.parse(event.time) : Number.NaN;
  return Number.isFinite(began) ? began : Date.now();
}

/** How far back a start looks for deliveries still Pending: older ones are stale news. */
const LOOK_BACK_MS = 24 * 3600 * 1000;

/**
 * The `created_at` range of the deliveries a start enqueues again: the day before it began, and
 * nothing created since (those had their messages sent).
 */
export function createdBeforeStart(event?: Partial<StartupEvent>): { kind: 'range'; start: number; end: number } {
  const began = startBegan(event);
  return { kind: 'range', start: began - LOOK_BACK_MS, end: began - 1 };
}
