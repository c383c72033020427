/**
 * The throw-away environment of the sections that run our services (section 17): a new database,
 * its own NATS namespace, the benchmark's S3, every schema migrated, and all of it removed at clean-up.
 */
import { migrateAll, type StackEnv } from '../stack/stack';
import { createTestDatabase, deleteNamespaceStreams, NATS_URL, uniqueSuffix } from '../testing/env';
import { BUCKET, S3_CREDENTIALS, UNUSED_JWKS_URL, checkInterrupted, onCleanup } from './common';

export interface BenchEnv {
  db: { name: string; url: string };
  namespace: string;
  /** the services' environment */
  env: StackEnv;
}

/**
 * A new database (dropped at clean-up) and NATS namespace `<namespacePrefix><unique suffix>` (its
 * streams deleted at clean-up), the environment that points the services at them and at the
 * benchmark's S3, and the database migrated with every service's schema.
 */
export async function benchEnv(o: { s3Endpoint: string; namespacePrefix: string }): Promise<BenchEnv> {
  checkInterrupted();
  const db = await createTestDatabase();
  onCleanup(`database ${db.name}`, () => db.drop());
  const namespace = `${o.namespacePrefix}${uniqueSuffix()}`;
  onCleanup(`NATS streams of namespace ${namespace}`, () => deleteNamespaceStreams(namespace));
  const env: StackEnv = {
    DATABASE_URL: db.url,
    NATS_URL,
    NATS_NAMESPACE: namespace,
    S3_ENDPOINT: o.s3Endpoint,
    S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    S3_BUCKET: BUCKET,
    // the gateway needs a provider key source to start; nothing here uses provider sessions
    PROVIDER_JWKS_URL: UNUSED_JWKS_URL,
    PROVIDER_API_URL: new URL(UNUSED_JWKS_URL).origin,
    PROVIDER_WEBHOOK_SECRET: 'whsec_bench_unused_0123456789abcdef0123',
  };
  checkInterrupted();
  await migrateAll(env);
  checkInterrupted();
  return { db: { name: db.name, url: db.url }, namespace, env };
}
