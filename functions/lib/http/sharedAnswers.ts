// Answers that are the same for every caller (the home dashboard's), kept a few seconds in this
// process and served again as they were written: a second viewer, a wall screen beside an
// operator's console, or a reload within that time costs no read and no JSON, only the pipeline
// (docs/check-engine.md "Measured figures": the reads and the JSON are what such an answer costs).
// A route opts in with `sharedFor` (ms); the API handler (apiHandler.ts) applies it.
//
// What a caller may see: an answer at most `sharedFor` old, never older; each Lambda instance
// (and the local runner) keeps its own. A route whose panel refreshes every R seconds declares a
// `sharedFor` well under R, so every refresh still shows a newer answer than the one before.
// Only successful answers are kept; a failure is computed again by the next caller.

/** An answer as it goes out: the envelope's body, written once, and the headers the route set. */
export interface SharedAnswer {
  body: string;
  headers: Record<string, string>;
  /** When the reads it was made from began, if before it was handed here (a stored answer: keptAnswers.ts). */
  madeAt?: number;
}

interface Kept extends SharedAnswer {
  /** When this process got it: it is kept `ttlMs` from then. */
  at: number;
  madeAt: number;
}

const KEYS_BEFORE_PRUNE = 256;
/** No route keeps an answer longer than this (the wall screen's refresh; the router refuses more). */
export const MAX_TTL_MS = 30_000;

/** The `SHARED_ANSWERS=off` switch (the test stacks): every call computes its answer, none is kept or stored. */
export const sharingOff = () => process.env.SHARED_ANSWERS === 'off';

export function sharedAnswers(now: () => number = Date.now) {
  const kept = new Map<string, Kept>();
  const computing = new Map<string, Promise<Kept>>();
  // Bumped by clear(), so an answer computed before it is not kept after it.
  let generation = 0;
  /** Keeps an answer; past KEYS_BEFORE_PRUNE keys (a timings answer per site) the expired ones go first. */
  const keep = (key: string, answer: Kept) => {
    if (kept.size >= KEYS_BEFORE_PRUNE) for (const [k, old] of kept) if (now() - old.at >= MAX_TTL_MS) kept.delete(k);
    kept.set(key, answer);
  };
  return {
    /**
     * The answer of `key` if one was kept less than `ttlMs` ago (with its age in ms), else
     * `compute`'s, kept for the next caller. Callers of the same key meanwhile share one compute.
     */
    async answer(
      key: string,
      ttlMs: number,
      compute: () => Promise<SharedAnswer>,
    ): Promise<SharedAnswer & { ageMs: number; computed: boolean }> {
      if (ttlMs <= 0 || sharingOff()) {
        const answer = await compute();
        return { ...answer, ageMs: answer.madeAt ? Math.max(0, now() - answer.madeAt) : 0, computed: true };
      }
      const at = now();
      const hit = kept.get(key);
      if (hit && at - hit.at < ttlMs)
        return { body: hit.body, headers: hit.headers, ageMs: at - hit.madeAt, computed: false };
      let pending = computing.get(key);
      const computed = !pending;
      if (!pending) {
        const started = generation;
        pending = compute()
          .then((answer) => {
            // Its age counts from when its reads began: an answer is never older than it says.
            const fresh = { ...answer, at, madeAt: Math.min(at, answer.madeAt ?? at) };
            if (started === generation) keep(key, fresh);
            return fresh;
          })
          .finally(() => {
            if (computing.get(key) === pending) computing.delete(key);
          });
        computing.set(key, pending);
      }
      const answer = await pending;
      return { body: answer.body, headers: answer.headers, ageMs: Math.max(0, now() - answer.madeAt), computed };
    },
    /** Forgets every kept answer (the bench's cold calls; a test). */
    clear(): void {
      generation++;
      kept.clear();
      computing.clear();
    },
  };
}

/** This process's kept answers, which the API handler serves. */
export const processAnswers = sharedAnswers();
