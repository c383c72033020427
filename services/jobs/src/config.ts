import { databaseServiceConfig, loadConfig } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'jobs';
export const SCHEMA = 'jobs';

export const jobsConfigSchema = z.object(databaseServiceConfig(3102));
export type JobsConfig = z.infer<typeof jobsConfigSchema>;

export const loadJobsConfig = (env: NodeJS.ProcessEnv = process.env): JobsConfig => loadConfig(SERVICE, jobsConfigSchema, env);
