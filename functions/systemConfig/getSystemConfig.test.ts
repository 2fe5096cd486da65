import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_CONFIG, type SystemConfig } from '../../shared/schemas/systemConfig.js';
import { createSystemConfigAccessor } from './getSystemConfig.js';
import type { StoredConfigHead, SystemConfigStore } from './store.js';

/** A store holding one head in memory, counting reads. */
function memoryStore() {
  let head: StoredConfigHead | undefined;
  const state = { reads: 0 };
  const store = {
    async head() {
      state.reads++;
      return head;
    },
    set(document: SystemConfig) {
      head = { version: (head?.version ?? 0) + 1, document, updated_by: { id: 1, nickname: 'a' }, updated_at: 1 };
    },
  };
  return { store: store as unknown as SystemConfigStore & typeof store, state };
}

describe('getSystemConfig', () => {
  it('serves the defaults before the first save', async () => {
    const { store } = memoryStore();
    const accessor = createSystemConfigAccessor(() => store);
    expect(await accessor.get()).toEqual(DEFAULT_SYSTEM_CONFIG);
  });

  it('sees a change made elsewhere once its copy is older than the TTL, and reads once per TTL', async () => {
    const { store, state } = memoryStore();
    let clock = 1_000;
    const accessor = createSystemConfigAccessor(() => store, { ttlMs: 5_000, now: () => clock });
    await Promise.all([accessor.get(), accessor.get(), accessor.get()]);
    expect(state.reads).toBe(1);

    store.set({ ...DEFAULT_SYSTEM_CONFIG, time_zone: 'UTC' });
    clock += 4_999;
    expect((await accessor.get()).time_zone).toBe('Asia/Yangon');
    clock += 1;
    expect((await accessor.get()).time_zone).toBe('UTC');
    expect(state.reads).toBe(2);
  });

  it('fills settings added after a version was saved with their defaults', async () => {
    const { store } = memoryStore();
    const { bank: _, ...older } = DEFAULT_SYSTEM_CONFIG;
    store.set({ ...older, time_zone: 'Asia/Tokyo' } as SystemConfig);
    const accessor = createSystemConfigAccessor(() => store);
    expect(await accessor.get()).toMatchObject({ time_zone: 'Asia/Tokyo', bank: DEFAULT_SYSTEM_CONFIG.bank });
  });
});
