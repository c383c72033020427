import { createDataSource } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { CreateJobEvents1732200000001 } from './migrations/1732200000001-CreateJobEvents';
import { CreateErrorLogs1764500000000 } from './migrations/1764500000000-CreateErrorLogs';

export const analyticsDataSource = (url: string) =>
  createDataSource({ url, schema: SCHEMA, entities: [], migrations: [CreateJobEvents1732200000001, CreateErrorLogs1764500000000], applicationName: `wordcut-${SERVICE}` });
