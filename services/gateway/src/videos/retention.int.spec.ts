/**
 * The retention sweep against a real Postgres: videos nobody opened for the configured days go
 * with their objects (by the video's storage prefix) and their rows; recent ones stay; old
 * rate-limit windows are pruned on every sweep; one replica sweeps at a time (advisory lock); and
 * when objects cannot be deleted the row stays for the next sweep. The object store is a fake that
 * records which prefixes were deleted.
 */
import { StorageKeys } from '@wordcut/contracts';
import { createLogger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { RateLimitStore } from '../limits/limits';
import { RetentionSweeper } from './retention';
import { VideoStore } from './video-store';

const database = gatewayTestDatabase(4);
const videos = database.store(VideoStore);
const rateLimits = database.store(RateLimitStore);

/** Records deleted prefixes; `failing` makes every delete throw. */
class PrefixRecorder {
  readonly prefixes: string[] = [];
  failing = false;
  async deletePrefix(prefix: string): Promise<number> {
    if (this.failing) throw new Error('S3 unavailable');
    this.prefixes.push(prefix);
    return 3;
  }
}

function sweeper(storage: PrefixRecorder, days: number) {
  return new RetentionSweeper(database.ds, videos, storage as unknown as ObjectStorage, rateLimits, createLogger('retention-test', 'silent'), { days, intervalMs: 60000 });
}

/** A video last opened `daysAgo` days ago, with a transcript and a clip. */
async function videoOpened(daysAgo: number): Promise<string> {
  const id = randomUUID();
  await database.ds.query(
    `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, accessed_at)
     VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', now() - make_interval(days => $2))`,
    [id, daysAgo],
  );
  await database.ds.query(`INSERT INTO library.transcripts (id, video_id, version, language_code) VALUES ($1, $2, 1, 'en')`, [randomUUID(), id]);
  await database.ds.query(
    `INSERT INTO library.clips (id, video_id, name, start_time, end_time, aspect_ratio, status, job_id, output_key, vtt_key) VALUES ($1, $2, 'c', 0, 1, '1:1', 'completed', 'clip_x', 'k', 'v')`,
    [randomUUID(), id],
  );
  return id;
}

const exists = async (id: string) => (await videos.get(id)) !== null;

describe('RetentionSweeper.sweep', () => {
  it('deletes videos nobody opened for the configured days, with their objects and rows; keeps the rest', async () => {
    const [old, older, recent] = [await videoOpened(31), await videoOpened(400), await videoOpened(29)];
    const storage = new PrefixRecorder();
    expect(await sweeper(storage, 30).sweep()).toBe(2);
    expect(storage.prefixes.sort()).toEqual([StorageKeys.videoPrefix(old), StorageKeys.videoPrefix(older)].sort());
    expect(await exists(old)).toBe(false);
    expect(await exists(older)).toBe(false);
    expect(await exists(recent)).toBe(true);
    expect(await database.ds.query(`SELECT 1 FROM library.transcripts WHERE video_id = ANY($1::uuid[])`, [[old, older]])).toEqual([]);
    expect(await database.ds.query(`SELECT 1 FROM library.clips WHERE video_id = ANY($1::uuid[])`, [[old, older]])).toEqual([]);
    await videos.delete(recent);
  });

  it('keeps every video when retention is off (0 days), but still prunes rate-limit windows older than a day', async () => {
    const ancient = await videoOpened(5000);
    const key = `retention:${randomUUID()}`;
    await rateLimits.hit(key, 10, 3600, 'x', new Date(Date.now() - 3 * 24 * 3600 * 1000));
    await rateLimits.hit(`${key}:fresh`, 10, 3600, 'x');
    const storage = new PrefixRecorder();
    expect(await sweeper(storage, 0).sweep()).toBe(0);
    expect(await exists(ancient)).toBe(true);
    expect(storage.prefixes).toEqual([]);
    expect(await database.ds.query(`SELECT key FROM library.rate_limits WHERE key LIKE $1 ORDER BY key`, [`${key}%`])).toEqual([{ key: `${key}:fresh` }]);
    await videos.delete(ancient);
  });

  it('skips the round while another replica sweeps (holds the lock), and sweeps once it is free', async () => {
    const old = await videoOpened(90);
    const other = database.ds.createQueryRunner();
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('wordcut:retention'))`);
      const storage = new PrefixRecorder();
      expect(await sweeper(storage, 30).sweep()).toBe(0);
      expect(await exists(old)).toBe(true);
      await other.query(`SELECT pg_advisory_unlock(hashtext('wordcut:retention'))`);
      expect(await sweeper(storage, 30).sweep()).toBe(1);
      expect(await exists(old)).toBe(false);
    } finally {
      await other.release();
    }
  });

  it('leaves the row when its objects cannot be deleted, so the next sweep tries again (and frees the lock)', async () => {
    const old = await videoOpened(90);
    const storage = new PrefixRecorder();
    storage.failing = true;
    await expect(sweeper(storage, 30).sweep()).rejects.toThrow('S3 unavailable');
    expect(await exists(old)).toBe(true);
    storage.failing = false;
    expect(await sweeper(storage, 30).sweep()).toBe(1);
    expect(await exists(old)).toBe(false);
  });

  it('counts days from the time it is given', async () => {
    const v = await videoOpened(10);
    const storage = new PrefixRecorder();
    expect(await sweeper(storage, 30).sweep()).toBe(0);
    expect(await sweeper(storage, 30).sweep(new Date(Date.now() + 21 * 24 * 3600 * 1000))).toBe(1);
    expect(await exists(v)).toBe(false);
  });
});
