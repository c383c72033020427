/** `npm run migrate`: creates the database when missing and applies every service's migrations. */
import { migrateAll } from './stack';
import { ensureDatabase, localEnv } from './local-env';

async function main(): Promise<void> {
  const env = localEnv(process.env['S3_ENDPOINT'] ?? 'http://127.0.0.1:4568');
  await ensureDatabase(env.DATABASE_URL);
  await migrateAll(env);
  console.log('migrations: up to date');
}

main().catch((err) => {
  console.error(`migrate: ${(err as Error).message}`);
  process.exit(1);
});
