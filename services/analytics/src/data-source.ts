import { createDataSource } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { CreateJobEvents1732200000001 } from './migrations/1732200000001-CreateJobEvents';

export const analyticsDataSource = (url: string) =>
  createDataSource({ url, schema: SCHEMA, entities: [], migrations: [CreateJobEvents1732200000001], applicationName: `wordcut-${SERVICE}` });
