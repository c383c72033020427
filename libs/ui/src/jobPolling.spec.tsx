/** @jest-environment jsdom */
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './queryClient';
import { useFollowedJob, useJobPolling } from './jobPolling';
import type { FollowJobOptions, PollFailure } from './jobPolling';

/**
 * The job poller: the next poll runs one interval after the latest answer, failed polls are tried
 * again after their backoff, a final status stops polling, and a followed job's answers reach its
 * handlers once each, in order, and never after it stopped being followed.
 */

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

const tick = async (ms: number) => {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
};

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  jest.setSystemTime(0);
});
afterEach(() => jest.useRealTimers());

describe('useJobPolling', () => {
  it('polls at once, then an interval after each answer, until the interval says stop', async () => {
    const times: number[] = [];
    let answer = { status: 'processing' };
    const fetchStatus = jest.fn(async () => {
      times.push(Date.now());
      return answer;
    });
    renderHook(() => useJobPolling({ queryKey: ['job', 1], fetchStatus, interval: (latest) => (latest?.status === 'done' ? false : 2000) }), { wrapper });
    await tick(0);
    await tick(4000);
    answer = { status: 'done' };
    await tick(2000);
    await tick(10_000);
    expect(times).toEqual([0, 2000, 4000, 6000]);
  });

  it('with a known answer, waits one interval before the first poll', async () => {
    const fetchStatus = jest.fn(async () => 'processing');
    renderHook(() => useJobPolling({ queryKey: ['job', 2], fetchStatus, interval: () => 2000, initialAnswer: 'queued' }), { wrapper });
    await tick(1999);
    expect(fetchStatus).not.toHaveBeenCalled();
    await tick(1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });

  it('tries a failed poll again after each backoff, then reports the error', async () => {
    const times: number[] = [];
    const fetchStatus = jest.fn(async () => {
      times.push(Date.now());
      throw new Error('503');
    });
    const { result } = renderHook(
      () => useJobPolling({ queryKey: ['job', 3], fetchStatus, interval: () => 2000, retry: { attempts: 3, delayMs: (n) => 1000 * 2 ** (n - 1) } }),
      { wrapper },
    );
    await tick(0);
    await tick(7000);
    expect(times).toEqual([0, 1000, 3000, 7000]);
    await tick(100);
    expect(result.current.isError).toBe(true);
  });
});

describe('useFollowedJob', () => {
  type Status = { status: string };
  function follow(overrides: Partial<FollowJobOptions<Status>> = {}) {
    const seen: Array<[string, string]> = [];
    const failures: PollFailure[] = [];
    let answer: Status = { status: 'processing' };
    const fetchStatus = jest.fn(async (jobId: string) => {
      void jobId;
      return answer;
    });
    const view = renderHook(
      () =>
        useFollowedJob<Status>({
          name: 'test',
          fetchStatus,
          isFinal: (s) => s.status === 'completed',
          intervalMs: 2000,
          onStatus: (s, jobId) => seen.push([jobId, s.status]),
          onError: (_error, _jobId, failure) => {
            failures.push(failure);
          },
          ...overrides,
        }),
      { wrapper },
    );
    return { view, seen, failures, fetchStatus, setAnswer: (next: Status) => (answer = next) };
  }

  it('follows a job until its final status, each answer handled once', async () => {
    const { view, seen, fetchStatus, setAnswer } = follow();
    act(() => view.result.current.follow('job_1'));
    await tick(0);
    expect(seen).toEqual([['job_1', 'processing']]);
    setAnswer({ status: 'completed' });
    await tick(2000);
    await tick(10_000);
    expect(seen).toEqual([['job_1', 'processing'], ['job_1', 'completed']]);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    // a read after the final status (e.g. a cache reset refetching it) is not handed on again
    await act(async () => {
      view.result.current.pollNow();
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    expect(seen).toHaveLength(2);
  });

  it('can wait one interval before the first poll, and poll now on demand', async () => {
    const { view, fetchStatus } = follow();
    act(() => view.result.current.follow('job_2', { firstPollAfterInterval: true }));
    await tick(1000);
    expect(fetchStatus).not.toHaveBeenCalled();
    await act(async () => {
      view.result.current.pollNow();
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await tick(2000);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
  });

  it('drops answers once stopped, and counts failures in a row against the retries', async () => {
    let release: (s: Status) => void = () => {};
    const { view, seen, failures } = follow({
      fetchStatus: jest.fn(
        (jobId: string) =>
          new Promise<Status>((resolve, reject) => {
            if (jobId === 'job_bad') reject(new Error('down'));
            else release = resolve;
          }),
      ),
      retry: { attempts: 1, delayMs: () => 500 },
    });
    act(() => view.result.current.follow('job_3'));
    await tick(0);
    act(() => view.result.current.stop());
    await act(async () => {
      release({ status: 'processing' });
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(seen).toEqual([]);
    expect(view.result.current.jobId).toBeNull();

    act(() => view.result.current.follow('job_bad'));
    await tick(0);
    await tick(500);
    expect(failures).toEqual([
      { attempt: 1, willRetry: true },
      { attempt: 2, willRetry: false },
    ]);
  });
});
