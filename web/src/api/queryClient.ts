import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './ApiError';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** Query keys to refresh after success; without it every query is refreshed. */
      invalidates?: readonly (readonly unknown[])[];
    };
  }
}

/** A client mistake will not fix itself on retry; only network trouble and 5xx get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 10_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onSuccess: (_data, _vars, _ctx, mutation) => {
        const keys = mutation.meta?.invalidates;
        if (keys) for (const queryKey of keys) void client.invalidateQueries({ queryKey });
        else void client.invalidateQueries();
      },
    }),
  });
  return client;
}

export const queryClient = createQueryClient();
