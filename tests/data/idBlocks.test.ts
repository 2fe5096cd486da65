import { describe, expect, it } from 'vitest';
import { runToCrash, writeSequence } from '../../functions/lib/db/faults.js';
import { idFromBlock } from '../../functions/lib/db/ids.js';
import { setupDynamo } from './engine.js';

setupDynamo();

describe('id blocks', () => {
  it("are the process's: a crash injected into the sequence that needed the block first fails no other caller", async () => {
    let first: number | undefined;
    const [crash, other] = await Promise.all([
      // A sequence whose only work is an id: the block it takes is no write of its own.
      runToCrash({ sequence: 'probe', afterWrites: 1 }, () =>
        writeSequence('probe', async () => {
          first = await idFromBlock('probe_row');
        }),
      ),
      idFromBlock('probe_row'),
    ]);
    expect(crash.crashed).toBe(false);
    expect(first).toEqual(expect.any(Number));
    expect(other).toEqual(expect.any(Number));
    expect(other).not.toBe(first);
  });
});
