import { commonConfig, databaseConfig, loadConfig, natsConfig } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'jobs';
export const SCHEMA = 'jobs';

export const jobsConfigSchema = z.object({
  ...commonConfig,
  PORT: commonConfig.PORT.default(3102),
  ...natsConfig,
  ...databaseConfig,
});
export type JobsConfig = z.infer<typeof jobsConfigSchema>;

export const loadJobsConfig = (env: NodeJS.ProcessEnv = process.env): JobsConfig => loadConfig(SERVICE, jobsConfigSchema, env);
