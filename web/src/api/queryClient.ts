import { MutationCache, QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** Query keys to refresh after success; without it every query is refreshed. */
      invalidates?: readonly (readonly unknown[])[];
    };
  }
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        // Spec section 8: on failure the screen stays as it is, with no retry. `request()` shows the
        // failure tip, so a retry would also show the tip a second time.
        retry: false,
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
