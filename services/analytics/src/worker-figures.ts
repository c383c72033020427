import type { WorkerMetrics } from '@wordcut/contracts';

/** One recorded job lifecycle event, as the figures need it. */
export interface JobEventRecord {
  kind: 'requested' | 'started' | 'completed' | 'failed' | 'cancelled';
  jobId: string;
  /** when it happened (the event's own time) */
  at: Date;
  /** failed: the error */
  error?: string;
}

export interface WorkerPoolSettings {
  functionName: string;
  runtime: string;
  memoryMb: number;
  timeoutSeconds: number;
  throttleWaitMs: number;
  pricePerMillionRequests: number;
  pricePerGbSecond: number;
}

const RECENT_ERRORS = 10;
const REQUEST_ID_LENGTH = 12;

/**
 * The media worker pool's figures over [from, to) from job events: an attempt runs from its
 * `started` event to the job's next `completed`, `failed` or `cancelled` (or `to` while it runs).
 * Invocations are attempts started in the period; errors are failures in it; a job is throttled
 * when its first attempt started more than `throttleWaitMs` after it was requested. Recent errors
 * cover the 24 hours before `to`, newest first. Events may come in any order.
 */
export function workerFigures(events: readonly JobEventRecord[], from: Date, to: Date, pool: WorkerPoolSettings): WorkerMetrics {
  const byJob = new Map<string, JobEventRecord[]>();
  for (const e of events) {
    const list = byJob.get(e.jobId);
    if (list) list.push(e);
    else byJob.set(e.jobId, [e]);
  }
  const spans: Array<{ start: number; end: number; finished: boolean }> = [];
  let throttles = 0;
  for (const list of byJob.values()) {
    list.sort((a, b) => a.at.getTime() - b.at.getTime());
    const starts = list.filter((e) => e.kind === 'started');
    for (const s of starts) {
      const end = list.find((e) => (e.kind === 'completed' || e.kind === 'failed' || e.kind === 'cancelled') && e.at >= s.at);
      spans.push({ start: s.at.getTime(), end: Math.min(end ? end.at.getTime() : to.getTime(), to.getTime()), finished: Boolean(end) });
    }
    const requested = list.find((e) => e.kind === 'requested');
    const first = starts[0];
    if (requested && first && inPeriod(first.at, from, to) && first.at.getTime() - requested.at.getTime() > pool.throttleWaitMs) throttles++;
  }

  const inside = spans.filter((s) => s.start >= from.getTime() && s.start < to.getTime());
  const durations = inside.filter((s) => s.finished).map((s) => s.end - s.start);
  const failures = events.filter((e) => e.kind === 'failed' && inPeriod(e.at, from, to));
  const invocations = inside.length;
  const computeSeconds = inside.reduce((sum, s) => sum + (s.end - s.start) / 1000, 0);
  const requestCost = (invocations / 1_000_000) * pool.pricePerMillionRequests;
  const computeCost = computeSeconds * (pool.memoryMb / 1024) * pool.pricePerGbSecond;
  const period = periodLabel(to.getTime() - from.getTime());
  const dayAgo = to.getTime() - 24 * 3600_000;

  return {
    enabled: pool.functionName !== '',
    functionName: pool.functionName,
    runtime: pool.runtime,
    memorySize: pool.memoryMb,
    timeout: pool.timeoutSeconds,
    metrics: {
      invocations: { total: invocations, period },
      errors: { total: failures.length, errorRate: invocations > 0 ? round((failures.length / invocations) * 100, 2) : 0 },
      duration: {
        average: durations.length > 0 ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length) : 0,
        maximum: durations.length > 0 ? Math.max(...durations) : 0,
      },
      concurrentExecutions: mostAtOnce(spans, from.getTime(), to.getTime()),
      throttles,
    },
    cost: {
      period,
      requestCost,
      computeCost,
      totalCost: requestCost + computeCost,
      currency: 'USD',
      pricePerMillionRequests: pool.pricePerMillionRequests,
      pricePerGbSecond: pool.pricePerGbSecond,
    },
    recentErrors: events
      .filter((e) => e.kind === 'failed' && e.at.getTime() >= dayAgo && e.at.getTime() <= to.getTime())
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, RECENT_ERRORS)
      .map((e) => ({ requestId: e.jobId.slice(0, REQUEST_ID_LENGTH), jobId: e.jobId, timestamp: e.at.toISOString(), message: e.error ?? 'Unknown error' })),
  };
}

/** The most attempts running at the same moment within [from, to). */
export function mostAtOnce(spans: ReadonlyArray<{ start: number; end: number }>, from: number, to: number): number {
  const edges: Array<[number, number]> = [];
  for (const s of spans) {
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (end < start || start >= to) continue;
    edges.push([start, 1], [Math.max(end, start + 1), -1]);
  }
  // an end at the same instant as a start frees the worker first
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) {
    now += d;
    most = Math.max(most, now);
  }
  return most;
}

function inPeriod(at: Date, from: Date, to: Date): boolean {
  return at >= from && at < to;
}

function periodLabel(ms: number): string {
  return `last ${Math.round(ms / 60_000)} minutes`;
}

function round(n: number, places: number): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}
