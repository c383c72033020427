import { runMigrationCli } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { gatewayDataSource } from './data-source';

/** `node dist/migrate.js`: applies the gateway's migrations (local stack, Helm hook Job). */
runMigrationCli(SERVICE, SCHEMA, gatewayDataSource);
