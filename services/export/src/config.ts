import { commonConfig, databaseConfig, loadConfig, natsConfig, s3Config } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'export';
export const SCHEMA = 'export';

export const exportConfigSchema = z.object({
  ...commonConfig,
  PORT: commonConfig.PORT.default(3103),
  ...natsConfig,
  ...databaseConfig,
  ...s3Config,
});
export type ExportConfig = z.infer<typeof exportConfigSchema>;

export const loadExportConfig = (env: NodeJS.ProcessEnv = process.env): ExportConfig => loadConfig(SERVICE, exportConfigSchema, env);
