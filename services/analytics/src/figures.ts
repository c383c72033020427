import { workerMetricsQuerySchema, type WorkerMetrics } from '@wordcut/contracts';
import type { AnalyticsConfig } from './config';
import type { JobEventRecorder } from './job-events';
import { workerFigures, type WorkerPoolSettings } from './worker-figures';

/** Attempts may have started this long before the period and still run in it. */
const LOOKBACK_MS = 2 * 3600_000;
const DAY_MS = 24 * 3600_000;

export const workerQuerySchema = workerMetricsQuerySchema;

export function poolSettings(c: AnalyticsConfig): WorkerPoolSettings {
  return {
    functionName: c.MEDIA_WORKER_POOL_NAME,
    runtime: c.MEDIA_WORKER_RUNTIME,
    memoryMb: c.MEDIA_WORKER_MEMORY_MB,
    timeoutSeconds: c.MEDIA_JOB_TIMEOUT_SECONDS,
    throttleWaitMs: c.THROTTLE_WAIT_MS,
    pricePerMillionRequests: c.PRICE_PER_MILLION_REQUESTS,
    pricePerGbSecond: c.PRICE_PER_GB_SECOND,
  };
}

/** The media worker pool over the last `periodMinutes` (and its errors over the last 24 hours). */
export async function workerMetrics(recorder: JobEventRecorder, pool: WorkerPoolSettings, periodMinutes: number, now = new Date()): Promise<WorkerMetrics> {
  const from = new Date(now.getTime() - periodMinutes * 60_000);
  const readFrom = new Date(Math.min(from.getTime(), now.getTime() - DAY_MS) - LOOKBACK_MS);
  return workerFigures(await recorder.between(readFrom, now), from, now, pool);
}
