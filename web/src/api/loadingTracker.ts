// Counts requests in flight for the top loading bar. Calls marked `skipLoading` (the notification
// poll) never touch it, or the bar would blink every few seconds.
import { useSyncExternalStore } from 'react';

let inFlight = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function beginLoading(): () => void {
  inFlight += 1;
  emit();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight -= 1;
    emit();
  };
}

export function inFlightCount(): number {
  return inFlight;
}

export function subscribeLoading(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInFlightCount(): number {
  return useSyncExternalStore(subscribeLoading, inFlightCount, () => 0);
}
