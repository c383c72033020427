import { commonConfig, databaseConfig, loadConfig, natsConfig } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'analytics';
export const SCHEMA = 'analytics';

export const analyticsConfigSchema = z.object({
  ...commonConfig,
  PORT: commonConfig.PORT.default(3104),
  ...natsConfig,
  ...databaseConfig,
});
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const loadAnalyticsConfig = (env: NodeJS.ProcessEnv = process.env): AnalyticsConfig => loadConfig(SERVICE, analyticsConfigSchema, env);
