// Answers kept ready ahead of their callers (issue 26 item 7). The home dashboard's panels ask the
// same few questions all day (shared/schemas/dashboard.ts CONSOLE_CALLS), and computing one reads
// ~100 KB of rollups: 3-20× a raw 20-item Query's time on the local engine (bench/dashboard.bench.ts),
// which every Lambda instance that started cold, and a wall screen alone with its 30 s refresh, paid.
//
// A route lists the queries it keeps (`refreshAhead`). A scheduled function
// (functions/dashboard/refreshAnswers.ts, every minute) computes each and stores it whole
// (lib/db/storedAnswers.ts). A caller is served the stored answer, one small read, while it is
// younger than KEPT_MAX_AGE_MS; otherwise (the first caller after a start, or a refresher that
// stopped) it computes the answer and stores it for the next. Another query of such a route (a
// site's timings that no one keeps) is stored too, and served to other instances for `sharedFor`
// only, as this process's own shared answers are (sharedAnswers.ts), which still come first: a
// stored answer is read at most once per `sharedFor` per instance.
//
// What a caller may see: an answer at most KEPT_MAX_AGE_MS + sharedFor old, and its `age` header
// says how old. x-consumed-rcu is what serving it read (the stored record), not what computing it did.

import { HEADERS } from '../../../shared/envelope.js';
import { readStoredAnswer, storeAnswer } from '../db/storedAnswers.js';
import { logger } from '../logger.js';
import { successBody } from './middlewares/envelope.js';
import { RawReply, type Request, type Route, type Router } from './router.js';
import { type SharedAnswer, sharingOff } from './sharedAnswers.js';

/** A kept answer older than this is computed again by its caller: a missed refresh or two. */
export const KEPT_MAX_AGE_MS = 150_000;

/** One answer per path and validated query (its defaults filled in, so `?days=7` and `` meet). */
export const answerKey = (path: string, queryData: unknown): string => `${path} ${JSON.stringify(queryData ?? {})}`;

/** Runs a route's handler to an answer as it goes out: the envelope's body and the headers it set. */
export async function computeAnswer(route: Route, req: Request): Promise<SharedAnswer & { madeAt: number }> {
  const headers: Record<string, string> = {};
  const setHeader = (name: string, value: string) => {
    headers[name.toLowerCase()] = value;
  };
  const madeAt = Date.now();
  const data = await route.handler({ ...req, setHeader });
  if (data instanceof RawReply)
    throw new Error(`${route.pattern}: a shared answer is an envelope's data, not a RawReply`);
  return { body: successBody(data), headers, madeAt };
}

/** A route's kept queries as its schema reads them (defaults filled in). */
async function keptQueries(route: Route): Promise<unknown[]> {
  const declared = typeof route.refreshAhead === 'function' ? await route.refreshAhead() : (route.refreshAhead ?? []);
  return declared.map((query) => (route.query ? route.query.parse(query) : query));
}

/**
 * A shared route's answer for this caller: the stored one when it is young enough (a kept one
 * KEPT_MAX_AGE_MS, any other `sharedFor`), else computed and stored.
 */
export async function keptOrComputed(route: Route, req: Request, key: string): Promise<SharedAnswer> {
  if (sharingOff() || !route.refreshAhead) return computeAnswer(route, req);
  const { answer, rcu } = await readStoredAnswer(key);
  if (answer && Date.now() - answer.madeAt < (answer.kept ? KEPT_MAX_AGE_MS : (route.sharedFor ?? 0))) {
    return { ...answer, headers: { ...answer.headers, [HEADERS.consumedCapacity]: String(rcu) } };
  }
  const computed = await computeAnswer(route, req);
  // Kept from here on if the refresher keeps it: a caller that computed a kept answer stands in for it.
  // Storing is a courtesy to the next caller: one that fails (an answer past an item's 400 KB even
  // gzipped, a throttled write) costs that caller nothing but this log line.
  await storeAnswer(key, { ...computed, kept: answer?.kept ?? false }).catch((error: unknown) =>
    logger.warn('storing a shared answer failed', { key, error }),
  );
  return computed;
}

/**
 * Computes and stores every answer the routers' routes keep ready (the scheduled refresher). A
 * route whose queries are named by a function comes after the rest, so it may read their answers.
 * One that fails is left as it was (its caller computes it once it is too old); the rest go on.
 */
export async function refreshAhead(routers: readonly Router[]): Promise<{ refreshed: string[]; failed: string[] }> {
  const refreshed: string[] = [];
  const failed: string[] = [];
  if (sharingOff()) return { refreshed, failed };
  const routes = routers.flatMap((router) => router.routes).filter((route) => route.refreshAhead);
  const refresh = async (route: Route) => {
    let queries: unknown[];
    try {
      queries = await keptQueries(route);
    } catch (error) {
      logger.error('naming the kept queries failed', { route: route.pattern, error });
      failed.push(route.pattern);
      return;
    }
    await Promise.all(
      queries.map(async (queryData) => {
        const key = answerKey(route.pattern, queryData);
        try {
          const answer = await computeAnswer(route, refresherRequest(route, queryData));
          await storeAnswer(key, { ...answer, kept: true });
          refreshed.push(key);
        } catch (error) {
          logger.error('refreshing a kept answer failed', { key, error });
          failed.push(key);
        }
      }),
    );
  };
  await Promise.all(routes.filter((r) => typeof r.refreshAhead !== 'function').map(refresh));
  await Promise.all(routes.filter((r) => typeof r.refreshAhead === 'function').map(refresh));
  return { refreshed, failed };
}

/** The data of a stored answer (`data` of its envelope), if one is stored: for a route that names its kept queries from another's. */
export async function storedData<T>(path: string, queryData: unknown): Promise<T | undefined> {
  const { answer } = await readStoredAnswer(answerKey(path, queryData));
  return answer ? (JSON.parse(answer.body) as { data: T }).data : undefined;
}

/** What a kept route's handler reads of its request: the path and the query (the same for every caller). */
function refresherRequest(route: Route, queryData: unknown): Request {
  return {
    method: 'GET',
    path: route.pattern,
    params: {},
    query: {},
    queryData,
    headers: {},
    body: undefined,
    user: undefined as unknown as Request['user'],
    requestId: 'refresh-ahead',
    traceId: 'refresh-ahead',
    sourceIp: '',
    setHeader: () => {},
    event: undefined as unknown as Request['event'],
  };
}
