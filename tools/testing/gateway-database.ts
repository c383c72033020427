import { randomUUID } from 'node:crypto';
import { migrate } from '@wordcut/platform';
import type { DataSource } from 'typeorm';
import { SCHEMA } from '../../services/gateway/src/config';
import { gatewayDataSource } from '../../services/gateway/src/data-source';
import { createTestDatabase } from './env';

/** The database of a spec file, and the stores over it. */
export interface GatewayTestDatabase {
  /** set once the database is ready: read it inside hooks and tests */
  readonly ds: DataSource;
  /**
   * A store over the database, usable in hooks and tests: made on first use, once the database
   * is ready (so the spec can name it at its top level).
   */
  store<T extends object>(Store: new (ds: DataSource) => T): T;
  /** A completed video of `ownerId` with an empty first transcript, written directly; its id. */
  insertVideo(ownerId?: string): Promise<string>;
}

/**
 * A throw-away Postgres database with the gateway's migrations for the spec file that calls it
 * (at its top level): created before its tests, dropped after them.
 */
export function gatewayTestDatabase(poolSize = 4): GatewayTestDatabase {
  let ds: DataSource | undefined;
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    ds = gatewayDataSource(db.url, poolSize);
    await ds.initialize();
    await migrate(ds, SCHEMA);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });
  const ready = (): DataSource => {
    if (!ds) throw new Error('the test database is not ready: use it inside hooks and tests');
    return ds;
  };
  return {
    get ds() {
      return ready();
    },
    store<T extends object>(Store: new (ds: DataSource) => T): T {
      let made: T | undefined;
      return new Proxy({} as T, {
        get(_target, key) {
          made ??= new Store(ready());
          const value: unknown = Reflect.get(made, key);
          return typeof value === 'function' ? value.bind(made) : value;
        },
      });
    },
    async insertVideo(ownerId = 'owner-a') {
      const id = randomUUID();
      await ready().query(`INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id) VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', $2)`, [id, ownerId]);
      await ready().query(`INSERT INTO library.transcripts (id, video_id, version, language_code, word_count) VALUES ($1, $2, 1, 'en', 0)`, [randomUUID(), id]);
      return id;
    },
  };
}
