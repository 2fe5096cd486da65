import { held } from './db/conditionFailure.js';
import { when } from './db/expr.js';
import { keyedRecords } from './db/keyedRecords.js';

// A counting semaphore on the main table: `limit` numbered slot items per pool, each taken with
// one conditional put (free, or its lease has run out) and given back with a conditional delete
// (only by its holder). The limit is read by the caller on every take, so lowering or raising
// it applies to the next work at once, without a deploy; slots above a lowered limit simply
// drain as their holders finish. A holder that dies keeps its slot only until `leaseMs` passes.
// A holder may also hand its slot straight to another (one conditional update).

export interface SlotLease {
  pool: string;
  slot: number;
  holder: string;
}

/** A pool's numbered slots: one partition per pool, a record per slot (the keys written before lib/db named record keys). */
const slots = keyedRecords<ReturnType<typeof leaseOf>>('slot', { compound: true });
const slotId = (pool: string, slot: number) => `${pool}/${slot}`;

/**
 * Slots this process gave back, last first, per pool: most likely still free, so the next take
 * tries them before the others. A busy pool (4 checks at a time under a limit of 4) used to try
 * ~2.2 slots per take from a random start, each failed try a conditional put that costs what a
 * write costs.
 */
const freedHere = new Map<string, number[]>();
const FREED_KEPT = 16;

/** The order to try the first `limit` slots in: those given back here, then the rest from a random start. */
function tryOrder(pool: string, limit: number): number[] {
  const freed = (freedHere.get(pool) ?? []).filter((slot) => slot < limit);
  const start = Math.floor(Math.random() * limit);
  const rest = Array.from({ length: limit }, (_, i) => (start + i) % limit).filter((slot) => !freed.includes(slot));
  return [...freed, ...rest];
}

/** A holder's lease of a slot: the attributes a take or a hand-over writes. */
function leaseOf(holder: string, leaseMs: number, now: number) {
  return {
    holder,
    lease_until: now + leaseMs,
    // Lets TTL drop the slots of a pool whose limit was lowered; a pool never holds more than its
    // highest limit of items, so locally they are simply reused.
    expires_at: Math.ceil((now + leaseMs) / 1000) + 3600,
  };
}

/**
 * Takes a free slot of `pool` among the first `limit`, or answers undefined when all are held.
 * Slots this process gave back are tried first; the others from a random start, so parallel
 * takers rarely collide on the same item.
 */
export async function takeSlot(
  pool: string,
  limit: number,
  holder: string,
  leaseMs: number,
  now = Date.now(),
): Promise<SlotLease | undefined> {
  for (const slot of tryOrder(pool, limit)) {
    // Taken by this try, or by another holder: either way not free to offer again.
    const freed = freedHere.get(pool);
    if (freed?.includes(slot)) freed.splice(freed.indexOf(slot), 1);
    const taken = await slots.put(slotId(pool, slot), leaseOf(holder, leaseMs, now), {
      when: when.or(when.missing(), when.is('lease_until', '<', now)),
    });
    if (taken) return { pool, slot, holder };
  }
  return undefined;
}

/** Gives a slot back; a slot whose lease ran out and was taken by another holder stays theirs. */
export async function releaseSlot(lease: SlotLease): Promise<void> {
  const released = await held(
    slots.remove(slotId(lease.pool, lease.slot), { when: when.is('holder', '=', lease.holder) }),
  );
  if (!released) return;
  const freed = freedHere.get(lease.pool) ?? [];
  freedHere.set(lease.pool, [lease.slot, ...freed.filter((s) => s !== lease.slot)].slice(0, FREED_KEPT));
}

/**
 * Passes a held slot straight to `holder`, with a fresh lease: one conditional write where a release
 * and a take are two, and the slot is never free in between for a taker elsewhere. Undefined when
 * the lease was lost meanwhile (it ran out and another holder took the slot).
 */
export async function handOverSlot(
  lease: SlotLease,
  holder: string,
  leaseMs: number,
  now = Date.now(),
): Promise<SlotLease | undefined> {
  const handed = await held(
    slots.update(
      slotId(lease.pool, lease.slot),
      { set: leaseOf(holder, leaseMs, now) },
      { when: when.is('holder', '=', lease.holder) },
    ),
  );
  return handed ? { pool: lease.pool, slot: lease.slot, holder } : undefined;
}
