/**
 * The throw-away environment of the sections that run our services (jobs, transcripts, the editor
 * and timeline pages): a new database, its own NATS namespace, the benchmark's S3, migrated, and
 * all of it removed at clean-up.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT as STACK_ROOT, ServiceProcess, migrateAll, withGatewayDefaults, type StackEnv } from '../stack/stack';
import { createTestDatabase, NATS_URL, uniqueSuffix } from '../testing/env';
import { BUCKET, S3_CREDENTIALS, UNUSED_JWKS_URL, checkInterrupted, deleteNatsStreams, freePort, onCleanup } from './common';

/** Which schemas to create: every service's (the whole stack runs) or the gateway's alone. */
export type BenchMigrations = 'all' | 'gateway';

export interface BenchEnv {
  db: { name: string; url: string };
  namespace: string;
  /** the services' environment */
  env: StackEnv;
}

/**
 * A new database (dropped at clean-up) and NATS namespace `<namespacePrefix><unique suffix>` (its
 * streams deleted at clean-up), the environment that points the services at them and at the
 * benchmark's S3, and the database migrated as `migrate` says.
 */
export async function benchEnv(o: { s3Endpoint: string; namespacePrefix: string; migrate: BenchMigrations }): Promise<BenchEnv> {
  checkInterrupted();
  const db = await createTestDatabase();
  onCleanup(`database ${db.name}`, () => db.drop());
  const namespace = `${o.namespacePrefix}${uniqueSuffix()}`;
  onCleanup(`NATS streams of namespace ${namespace}`, () => deleteNatsStreams(NATS_URL, namespace));
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
  await (o.migrate === 'all' ? migrateAll(env) : migrateGateway(db.url));
  checkInterrupted();
  return { db: { name: db.name, url: db.url }, namespace, env };
}

/** `node services/gateway/dist/migrate.js`: only the gateway's schema. */
function migrateGateway(databaseUrl: string): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(STACK_ROOT, 'services', 'gateway', 'dist', 'migrate.js')], {
      cwd: STACK_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`gateway migrations failed (${code}): ${err.trim()}`))));
  });
}

/** The gateway alone (`services/gateway/dist/main.js`) on a free port, healthy; stopped at clean-up. */
export async function startBenchGateway(env: StackEnv, logLevel: 'info' | 'warn'): Promise<ServiceProcess> {
  const gateway = new ServiceProcess('gateway', await freePort(), withGatewayDefaults({ ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: logLevel, ...env }));
  onCleanup('the gateway', () => gateway.stop());
  gateway.start();
  await gateway.waitHealthy(60_000);
  return gateway;
}
