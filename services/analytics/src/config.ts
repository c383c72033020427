import { databaseServiceConfig, loadConfig } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'analytics';
export const SCHEMA = 'analytics';

export const analyticsConfigSchema = z.object(databaseServiceConfig(3104));
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const loadAnalyticsConfig = (env: NodeJS.ProcessEnv = process.env): AnalyticsConfig => loadConfig(SERVICE, analyticsConfigSchema, env);
