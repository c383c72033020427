import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/**
 * The client cache defaults: no automatic refetch interval, no refetch on
 * window focus, data never goes stale, no retries for queries or mutations, and the
 * default fetcher as query function (a 401 throws).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
