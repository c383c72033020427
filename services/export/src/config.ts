import { databaseServiceConfig, loadConfig, s3Config } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'export';
export const SCHEMA = 'export';

export const exportConfigSchema = z.object({
  ...databaseServiceConfig(3103),
  ...s3Config,
  /** the provider's API (uploads, token refresh, clone); the sandbox locally */
  PROVIDER_API_URL: z.string().url(),
  /** shared secret of the provider's signed webhooks (HMAC); long enough not to be guessed */
  PROVIDER_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters (the HMAC key of provider webhooks)'),
  /** where "Upgrade your plan" leads; put into quota_exceeded refusals when set */
  EXPORT_UPGRADE_URL: z.string().url().optional(),
  /** the address the provider delivers webhooks to (shown with failed ones on the dashboard) */
  PROVIDER_WEBHOOK_URL: z.string().min(1).default('/webhooks/provider'),
  /** export jobs one process runs at once */
  EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** bytes per upload request to the provider (a resumed upload loses at most one chunk); a multiple of 256 KiB */
  PROVIDER_CHUNK_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .refine((n) => n % (256 * 1024) === 0, 'must be a multiple of 256 KiB (262144 bytes)')
    .default(8 * 1024 * 1024),
});
export type ExportConfig = z.infer<typeof exportConfigSchema>;

export const loadExportConfig = (env: NodeJS.ProcessEnv = process.env): ExportConfig => loadConfig(SERVICE, exportConfigSchema, env);
