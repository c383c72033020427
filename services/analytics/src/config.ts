import { databaseServiceConfig, envFlag, loadConfig } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'analytics';
export const SCHEMA = 'analytics';

export const analyticsConfigSchema = z.object({
  ...databaseServiceConfig(3104),
  /** whether job events are summarised for the dashboard's Analytics Events section */
  ENABLE_ANALYTICS: envFlag(true),
  /** the media worker pool's name on the dashboard; empty = the section says it is not configured */
  MEDIA_WORKER_POOL_NAME: z.string().default('wordcut-media'),
  MEDIA_WORKER_RUNTIME: z.string().default(`Node.js ${process.versions.node.split('.')[0]} + ffmpeg`),
  /** each media worker's memory limit (the chart's resources.limits.memory), MB */
  MEDIA_WORKER_MEMORY_MB: z.coerce.number().int().positive().default(1024),
  /** a render's time limit (the media workers' RENDER_TIMEOUT_MS), seconds */
  MEDIA_JOB_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(7200),
  /** a job that waits longer than this for a worker counts as throttled */
  THROTTLE_WAIT_MS: z.coerce.number().int().positive().default(2000),
  /** the cost estimate's prices (USD) */
  PRICE_PER_MILLION_REQUESTS: z.coerce.number().nonnegative().default(0.2),
  PRICE_PER_GB_SECOND: z.coerce.number().nonnegative().default(0.0000166667),
  /** the error log keeps entries this long, and at most this many */
  ERROR_LOG_MAX_AGE_DAYS: z.coerce.number().int().positive().default(30),
  ERROR_LOG_MAX_ROWS: z.coerce.number().int().positive().default(10000),
});
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const loadAnalyticsConfig = (env: NodeJS.ProcessEnv = process.env): AnalyticsConfig => loadConfig(SERVICE, analyticsConfigSchema, env);
