import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { QueryFunctionContext, QueryKey, UseQueryResult } from '@tanstack/react-query';

/**
 * The one way the web apps poll a job: a TanStack query whose refetchInterval is computed from the
 * latest answer. The Active Jobs list polls with it directly; a view that follows one job at a time
 * (the editor's job overlay, the publish app's export progress) uses {@link useFollowedJob} on top.
 */

/** How failed polls are tried again before the failure counts. */
export interface PollRetry {
  /** how many times a failed poll is tried again */
  attempts: number;
  /** the wait after the n-th failure (1-based) */
  delayMs: (failures: number) => number;
}

export interface JobPollingOptions<TAnswer> {
  /** what is polled: one key, one poll (a changed key starts a new one) */
  queryKey: QueryKey;
  /** one read of the job's status */
  fetchStatus: (context: QueryFunctionContext) => Promise<TAnswer>;
  enabled?: boolean;
  /** how long after the latest answer the next poll runs; false stops polling (e.g. the job ended) */
  interval: (latest: TAnswer | undefined) => number | false;
  /** an answer known before polling starts: the first poll then waits one interval instead of running at once */
  initialAnswer?: TAnswer;
  /** failed polls tried again before the query reports the error; default: not tried again */
  retry?: PollRetry;
  /**
   * Polls go on in a hidden tab and without a network, each failure reported (default). False
   * leaves TanStack Query's defaults: no polls while hidden, none while offline.
   */
  pollWhenHidden?: boolean;
}

export function useJobPolling<TAnswer>(options: JobPollingOptions<TAnswer>): UseQueryResult<TAnswer> {
  const { retry, pollWhenHidden = true } = options;
  return useQuery<TAnswer>({
    queryKey: options.queryKey,
    queryFn: options.fetchStatus,
    enabled: options.enabled ?? true,
    refetchInterval: (query) => options.interval(query.state.data),
    initialData: options.initialAnswer,
    // answers never go stale: polls come from the interval only (and a known answer delays the first)
    staleTime: Infinity,
    retry: retry ? retry.attempts : false,
    ...(retry ? { retryDelay: (failureCount: number) => retry.delayMs(failureCount + 1) } : {}),
    ...(pollWhenHidden ? { refetchIntervalInBackground: true, networkMode: 'always' as const } : {}),
  });
}

/** What a failed status read of a followed job was. */
export interface PollFailure {
  /** how many reads in a row failed, this one included */
  attempt: number;
  /** another read follows after the retry's wait; false once the retries are used up */
  willRetry: boolean;
}

export interface FollowJobOptions<TStatus> {
  /** names this view's polls in the page's query cache */
  name: string;
  fetchStatus: (jobId: string) => Promise<TStatus>;
  /** true for a status after which the job changes no more: polling stops */
  isFinal: (status: TStatus) => boolean;
  intervalMs: number;
  retry?: PollRetry;
  /** every status read of the followed job, in order, once each */
  onStatus: (status: TStatus, jobId: string) => void;
  /** every failed read of the followed job; the next retry waits until a returned promise settles */
  onError: (error: unknown, jobId: string, failure: PollFailure) => void | Promise<void>;
}

export interface FollowedJob {
  /** the job being followed, or null */
  jobId: string | null;
  /** follows `jobId` from a new first poll: at once, or one interval later with `firstPollAfterInterval` */
  follow(jobId: string, options?: { firstPollAfterInterval?: boolean }): void;
  /** stops following: no more polls, and answers still under way are dropped */
  stop(): void;
  /** polls the followed job now instead of at the next interval */
  pollNow(): void;
}

interface FollowTarget {
  jobId: string;
  /** unique per follow() on the page, so a job followed again starts a new poll */
  run: number;
  firstPollAfterInterval: boolean;
  /** a final status was handed on: later answers (a cache reset refetching it) are dropped */
  ended: boolean;
}

let lastRun = 0;

/**
 * One job at a time, polled every `intervalMs` until a final status. Answers and failures reach
 * `onStatus` / `onError` as they arrive (not through a render), so each is handled exactly once;
 * answers after the final one, of a job no longer followed, or after unmount, are dropped.
 */
export function useFollowedJob<TStatus>(options: FollowJobOptions<TStatus>): FollowedJob {
  const [target, setTarget] = useState<FollowTarget | null>(null);
  const targetRef = useRef(target);
  const mounted = useRef(false);
  const failures = useRef(0);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const isFollowed = (candidate: FollowTarget) => mounted.current && targetRef.current === candidate && !candidate.ended;

  const followed = target;
  const query = useJobPolling<TStatus | null>({
    queryKey: ['followed-job', options.name, followed?.run ?? 0, followed?.jobId ?? null],
    enabled: followed !== null,
    initialAnswer: followed?.firstPollAfterInterval ? null : undefined,
    interval: (status) => (status !== null && status !== undefined && latest.current.isFinal(status) ? false : latest.current.intervalMs),
    retry: options.retry,
    fetchStatus: async () => {
      if (!followed) return null;
      const handlers = latest.current;
      try {
        const status = await handlers.fetchStatus(followed.jobId);
        if (isFollowed(followed)) {
          failures.current = 0;
          if (handlers.isFinal(status)) followed.ended = true;
          handlers.onStatus(status, followed.jobId);
        }
        return status;
      } catch (error) {
        if (isFollowed(followed)) {
          failures.current += 1;
          const attempt = failures.current;
          const willRetry = attempt <= (handlers.retry?.attempts ?? 0);
          if (!willRetry) failures.current = 0;
          await handlers.onError(error, followed.jobId, { attempt, willRetry });
        }
        throw error;
      }
    },
  });

  const { refetch } = query;
  const follow = useCallback((jobId: string, followOptions: { firstPollAfterInterval?: boolean } = {}) => {
    const next: FollowTarget = { jobId, run: ++lastRun, firstPollAfterInterval: followOptions.firstPollAfterInterval ?? false, ended: false };
    targetRef.current = next;
    failures.current = 0;
    setTarget(next);
  }, []);
  const stop = useCallback(() => {
    targetRef.current = null;
    setTarget(null);
  }, []);
  const pollNow = useCallback(() => {
    if (!targetRef.current) return;
    failures.current = 0;
    void refetch({ cancelRefetch: true });
  }, [refetch]);

  return { jobId: target?.jobId ?? null, follow, stop, pollNow };
}
