import { createDataSource } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';

/** The export schema gets its tables with the publishing issue; migrate creates the schema. */
export const exportDataSource = (url: string) =>
  createDataSource({ url, schema: SCHEMA, entities: [], migrations: [], applicationName: `wordcut-${SERVICE}` });
