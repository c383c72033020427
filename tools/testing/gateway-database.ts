import { migrate } from '@wordcut/platform';
import type { DataSource } from 'typeorm';
import { SCHEMA } from '../../services/gateway/src/config';
import { gatewayDataSource } from '../../services/gateway/src/data-source';
import { createTestDatabase } from './env';

/**
 * A throw-away Postgres database with the gateway's migrations for the spec file that calls it
 * (at its top level): created before its tests, dropped after them. `ds` is set once the
 * database is ready, so read it inside hooks and tests.
 */
export function gatewayTestDatabase(poolSize = 4): { readonly ds: DataSource } {
  const handle = {} as { ds: DataSource };
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    handle.ds = gatewayDataSource(db.url, poolSize);
    await handle.ds.initialize();
    await migrate(handle.ds, SCHEMA);
  });
  afterAll(async () => {
    await handle.ds?.destroy();
    await db?.drop();
  });
  return handle;
}
