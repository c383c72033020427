import { runMigrationCli } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { analyticsDataSource } from './data-source';

/** `node dist/migrate.js`: applies this service's migrations (local stack, Helm hook Job). */
runMigrationCli(SERVICE, SCHEMA, analyticsDataSource);
