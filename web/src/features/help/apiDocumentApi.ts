import type { ApiDocument } from '@shared/bankWebhookDocs';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** GET /openapi.json: the API document, bare (no envelope); the Help page renders the bank webhooks from it. */
export const openApiQuery = {
  queryKey: queryKeys.single('openapi'),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    request<ApiDocument>({ url: '/openapi.json', raw: true, silent: true, signal }),
  // The document changes only with a deploy.
  staleTime: Number.POSITIVE_INFINITY,
};

export function useOpenApiDocument() {
  return useQuery(openApiQuery);
}
