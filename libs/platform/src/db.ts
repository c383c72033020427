import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import type { HealthCheck } from './health';

export interface DataSourceOptions {
  url: string;
  /** The service's own schema: every service owns exactly one. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  applicationName: string;
  poolSize?: number;
}

/** A TypeORM data source bound to one schema. Never `synchronize`: the schema comes from migrations. */
export function createDataSource(o: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: o.url,
    schema: o.schema,
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'all',
    synchronize: false,
    migrationsRun: false,
    applicationName: o.applicationName,
    extra: { max: o.poolSize ?? 10 },
  });
}

/**
 * Applies pending migrations (used by `npm run migrate` and the Helm pre-upgrade job).
 * Creates the schema first, under an advisory lock so two runners never race.
 */
export async function migrate(ds: DataSource, schema: string): Promise<string[]> {
  const wasInitialized = ds.isInitialized;
  if (!wasInitialized) await ds.initialize();
  try {
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`wordcut-migrate-${schema}`]);
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await ds.runMigrations({ transaction: 'all' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`wordcut-migrate-${schema}`]).catch(() => undefined);
      await runner.release();
    }
  } finally {
    if (!wasInitialized) await ds.destroy();
  }
}

/** Services refuse to start on a database whose migrations are behind the code. */
export async function assertMigrated(ds: DataSource, schema: string): Promise<void> {
  const pending = await ds.showMigrations();
  if (pending) {
    throw new Error(`database schema "${schema}" has pending migrations: run \`npm run migrate\` first`);
  }
}

/** Connects a service's data source, refusing (like {@link assertMigrated}) a schema whose migrations are behind. */
export async function openMigrated(ds: DataSource, schema: string): Promise<DataSource> {
  await ds.initialize();
  await assertMigrated(ds, schema);
  return ds;
}

/** The health check of a service's Postgres data source. */
export function postgresHealthCheck(ds: DataSource): HealthCheck {
  return { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) };
}

/**
 * The health checks and the shutdown of a service's Postgres data source and NATS connection:
 * NATS closes first (no message is handled on a closed pool), then the pool.
 */
export function databaseAndBusParts(ds: DataSource, bus: { ping(): Promise<void>; close(): Promise<void> }): { healthChecks: HealthCheck[]; close: () => Promise<void> } {
  return {
    healthChecks: [postgresHealthCheck(ds), { name: 'nats', check: () => bus.ping() }],
    close: async () => {
      await bus.close();
      await ds.destroy();
    },
  };
}

/** Body of a service's `dist/migrate.js`: DATABASE_URL from the environment, migrate, log, exit. */
export function runMigrationCli(service: string, schema: string, dataSource: (url: string) => DataSource): void {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    process.stderr.write(`${service} migrate: DATABASE_URL is required\n`);
    process.exit(1);
  }
  migrate(dataSource(url), schema)
    .then((applied) => {
      process.stdout.write(
        `${JSON.stringify({ level: 'info', service: `${service}-migrate`, schema, applied, msg: applied.length ? 'migrations applied' : 'schema up to date' })}\n`,
      );
    })
    .catch((err: unknown) => {
      process.stderr.write(`${service} migrate failed: ${(err as Error).message}\n`);
      process.exit(1);
    });
}
