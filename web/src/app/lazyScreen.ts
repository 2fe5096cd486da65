import { type ComponentType, lazy } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** A code-split screen; a chunk that has not arrived within the spec's 120 s counts as failed. */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>) {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChunkLoadError('Chunk load timed out')), CHUNK_LOAD_TIMEOUT_MS);
        load().then(
          (mod) => {
            clearTimeout(timer);
            resolve(mod);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      }),
  );
}
