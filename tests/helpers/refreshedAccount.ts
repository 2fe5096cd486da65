import { until } from './until.js';

interface Answer {
  status: number;
  body: { data?: { polled?: boolean } };
}

/**
 * Init (refresh) of a new bank account, to its end. The account's own first poll, dispatched when it
 * was created, may hold the lease at that moment: the refresh then answers at once with
 * `polled: false` while that poll is still storing the history (as an operator may see too). So it is
 * asked again until a refresh of its own has run, and the history read next is complete.
 */
export const refreshedAccount = (post: (path: string) => Promise<Answer>, id: number) =>
  until(
    `a refresh of account ${id}`,
    () => post(`/bank/bank-account/${id}/refresh`),
    (res) => res.status !== 200 || res.body.data?.polled === true,
    { ms: 60_000, everyMs: 1000 },
  );
