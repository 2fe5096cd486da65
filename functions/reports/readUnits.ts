// The read units a piece of work consumed, whatever module read: every DynamoDB read made inside
// `countReadUnits` asks for its ConsumedCapacity and adds it to that call's tally. A report's cost
// is then what DynamoDB says it read (the bench and the tests hold it to a budget), not a sum each
// reader would have to remember to return.

import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamoClient } from '../lib/aws/clients.js';

/** Every tally open around the current call (a part's tally nests in the whole report's). */
const tally = new AsyncLocalStorage<{ rcu: number }[]>();
const metered = new WeakSet<object>();

interface CapacityOutput {
  ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
}

/** Adds the meter to the current client once (a client made again by resetClients gets it on its first use here). */
function meterClient(): void {
  const client = dynamoClient();
  if (metered.has(client)) return;
  metered.add(client);
  client.middlewareStack.add(
    (next) => async (args) => {
      const counters = tally.getStore();
      const input = args.input as { ReturnConsumedCapacity?: string };
      if (counters && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      if (counters) {
        const used = (out.output as CapacityOutput).ConsumedCapacity;
        for (const c of Array.isArray(used) ? used : used ? [used] : [])
          for (const counter of counters) counter.rcu += c.CapacityUnits ?? 0;
      }
      return out;
    },
    { step: 'initialize', name: 'patrolReadUnits' },
  );
}

/** Runs `work` and answers its value with the read units every DynamoDB call inside it consumed. */
export async function countReadUnits<T>(work: () => Promise<T>): Promise<{ value: T; rcu: number }> {
  meterClient();
  const counter = { rcu: 0 };
  const value = await tally.run([...(tally.getStore() ?? []), counter], work);
  return { value, rcu: Math.round(counter.rcu * 10) / 10 };
}
