import { createQueryClient } from './queryClient';

describe('createQueryClient', () => {
  it('has the client cache defaults: no interval, no focus refetch, never stale, no retries', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.staleTime).toBe(Infinity);
    expect(queries?.retry).toBe(false);
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations?.retry).toBe(false);
  });
});
