import { runMigrationCli } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { jobsDataSource } from './data-source';

/** `node dist/migrate.js`: applies this service's migrations (local stack, Helm hook Job). */
runMigrationCli(SERVICE, SCHEMA, jobsDataSource);
