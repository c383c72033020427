import { migrate } from '@wordcut/platform';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from './env';

/**
 * A throw-away database with one service's schema migrated, for the spec it is called in (made
 * before its tests, dropped after them); `ds()` is its data source.
 */
export function migratedDatabase(dataSource: (url: string) => DataSource, schema: string): { ds: () => DataSource } {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let ds: DataSource | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    ds = dataSource(db.url);
    await ds.initialize();
    await migrate(ds, schema);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });
  return { ds: () => ds! };
}

/** Puts the named environment variables back as they were after each test. */
export function restoreEnvAfterEach(...names: string[]): void {
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
