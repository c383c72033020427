import { createLogger, migrate } from '@wordcut/platform';
import { z } from 'zod';
import { SCHEMA } from './config';
import { jobsDataSource } from './data-source';

/** `node dist/migrate.js`: applies this service's migrations (local stack, Helm pre-upgrade job). */
async function main(): Promise<void> {
  const log = createLogger('jobs-migrate');
  const url = z.string().min(1, 'DATABASE_URL is required').parse(process.env['DATABASE_URL']);
  const applied = await migrate(jobsDataSource(url), SCHEMA);
  log.info({ schema: SCHEMA, applied }, applied.length ? 'migrations applied' : 'schema up to date');
}

main().catch((err) => {
  process.stderr.write(`migration failed: ${(err as Error).message}\n`);
  process.exit(1);
});
