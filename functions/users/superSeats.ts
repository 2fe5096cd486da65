// How many enabled super users there are, as one counter item, so that "never take away the last
// one" is decided by one conditional write and not by a count that a parallel change can outdate:
// two supers demoting each other at once both read "2 supers" from a list, but only one of them
// can move the counter from 2 to 1.
//
// Without transactions (dynalite has none) the counter and the user rows are separate writes,
// ordered so that a crash between them leaves the counter at or below the truth: a seat is given
// up before the row loses it, and taken only after the row gained it. Too low only refuses a
// demotion that would have been allowed; it never lets the last super go.

import { held } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';

/** The one counter item (its key as it was written before lib/db named record keys). */
const roster = keyedRecords<{ seats: number }>('roster#user', { sk: 'roster' });
const SEATS = 'enabled-super';

export interface SuperSeats {
  /** Creates the counter from the rows once; call before any write that changes a user's seat. */
  ensure(countEnabledSupers: () => Promise<number>): Promise<void>;
  /** Gives up one seat; false (and nothing changed) when it is the last one. */
  release(): Promise<boolean>;
  /** Takes one seat back (a row now holds it, or a release must be undone). */
  take(): Promise<void>;
}

export function dynamoSuperSeats(): SuperSeats {
  let known = false;
  return {
    async ensure(countEnabledSupers) {
      if (known) return;
      if (!(await roster.get(SEATS, { consistent: true }))) {
        // Counted before this writer's own row change, so a parallel seeding that wins cannot
        // count a row whose seat is added again afterwards.
        const seats = await countEnabledSupers();
        await roster.put(SEATS, { seats }, { ifAbsent: true });
      }
      known = true;
    },

    release() {
      return held(roster.update(SEATS, { add: { seats: -1 } }, { when: when.is('seats', '>', 1) }));
    },

    async take() {
      await roster.update(SEATS, { add: { seats: 1 } });
    },
  };
}
