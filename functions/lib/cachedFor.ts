/**
 * A value read at most once every `ttlMs` in this process: for settings that every request
 * consults and an operator seldom changes (the system config, whether the bank chat is on). Each
 * Lambda instance and the local runner keep their own copy, so a save elsewhere takes effect within
 * `ttlMs`; a save in this process calls `invalidate` and takes effect at once.
 */
export interface Cached<T> {
  get(): Promise<T>;
  /** Drops the copy, so the next `get` reads again. */
  invalidate(): void;
}

export function cachedFor<T>(load: () => Promise<T>, options: { ttlMs: number; now?: () => number }): Cached<T> {
  const now = options.now ?? Date.now;
  let cached: { value: T; at: number } | undefined;
  let loading: Promise<T> | undefined;
  // Bumped by invalidate, so a read that started before it does not store its older answer.
  let generation = 0;
  return {
    async get() {
      const at = now();
      if (cached && at - cached.at < options.ttlMs) return cached.value;
      // Parallel callers of an expired copy share one read.
      if (!loading) {
        const started = generation;
        loading = load()
          .then((value) => {
            if (started === generation) cached = { value, at };
            return value;
          })
          .finally(() => {
            loading = undefined;
          });
      }
      return loading;
    },
    invalidate() {
      generation++;
      cached = undefined;
      loading = undefined;
    },
  };
}
