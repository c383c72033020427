/**
 * The limits against a real Postgres: fixed-window request counters shared by every replica
 * (RateLimitStore), and the running-jobs limit counted from renders and ingests under the user's
 * lock (ActiveJobs), also when two requests race for the last place.
 */
import { identityEditList } from '@wordcut/edit-list';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { RenderStore } from '../edits/render-store';
import { VideoStore } from '../videos/video-store';
import { ActiveJobs, RateLimitStore } from './limits';
import { rejectedWith } from '../../../../tools/testing/app-error';

const database = gatewayTestDatabase(6);
const limits = database.store(RateLimitStore);
const renders = database.store(RenderStore);
const videos = database.store(VideoStore);

const windows = async (key: string) =>
  ((await database.ds.query(`SELECT window_start, count FROM library.rate_limits WHERE key = $1 ORDER BY window_start`, [key])) as { window_start: Date; count: number }[]).map((r) => ({
    start: r.window_start.toISOString(),
    count: r.count,
  }));

describe('RateLimitStore', () => {
  const hourStart = new Date('2026-03-01T10:00:00.000Z');
  const at = (min: number) => new Date(hourStart.getTime() + min * 60000);

  it('allows `limit` requests per window, then answers 429 with the seconds until the window ends', async () => {
    const key = `upload:user:${randomUUID()}`;
    for (let i = 0; i < 3; i++) await limits.hit(key, 3, 3600, 'Too many uploads.', at(10));
    const e = await rejectedWith(limits.hit(key, 3, 3600, 'Too many uploads.', at(45)));
    expect(e).toMatchObject({ statusCode: 429, message: 'Too many uploads.', extra: { retryAfter: 15 * 60 } });
    // the refused request counts too
    expect(await windows(key)).toEqual([{ start: hourStart.toISOString(), count: 4 }]);
  });

  it('starts over in the next window, removing the old windows of that key only', async () => {
    const key = `session:ip:${randomUUID()}`;
    const other = `session:ip:${randomUUID()}`;
    await limits.hit(key, 1, 3600, 'x', at(1));
    await limits.hit(other, 1, 3600, 'x', at(1));
    await expect(limits.hit(key, 1, 3600, 'x', at(2))).rejects.toMatchObject({ statusCode: 429 });
    await limits.hit(key, 1, 3600, 'x', at(61));
    expect(await windows(key)).toEqual([{ start: at(60).toISOString(), count: 1 }]);
    expect(await windows(other)).toHaveLength(1);
  });

  it('counts keys apart', async () => {
    const [a, b] = [`k:${randomUUID()}`, `k:${randomUUID()}`];
    await limits.hit(a, 1, 60, 'x', at(0));
    await expect(limits.hit(b, 1, 60, 'x', at(0))).resolves.toBeUndefined();
  });

  it('counts every one of many concurrent requests', async () => {
    const key = `burst:${randomUUID()}`;
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => limits.hit(key, 5, 3600, 'x', at(5))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await windows(key)).toEqual([{ start: hourStart.toISOString(), count: 12 }]);
  });

  it('prunes windows that started before a time', async () => {
    const key = `prune:${randomUUID()}`;
    await limits.hit(key, 10, 3600, 'x', new Date('2020-01-01T00:30:00Z'));
    await limits.hit(`${key}:recent`, 10, 3600, 'x', new Date('2030-01-01T00:30:00Z'));
    await limits.prune(new Date('2025-01-01T00:00:00Z'));
    expect(await windows(key)).toEqual([]);
    expect(await windows(`${key}:recent`)).toHaveLength(1);
  });
});

describe('ActiveJobs (real counts)', () => {
  async function completedVideo(ownerId: string): Promise<string> {
    const id = randomUUID();
    await database.ds.query(`INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id) VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', $2)`, [
      id,
      ownerId,
    ]);
    return id;
  }

  /** In one transaction: reserve a place for `userId`, then record an active render of a video of theirs. */
  async function startRender(jobs: ActiveJobs, userId: string, kind: 'cut' | 'clip' = 'cut'): Promise<string> {
    const videoId = await completedVideo(userId);
    const jobId = `${kind}_${randomUUID()}`;
    await database.ds.transaction(async (tx) => {
      await jobs.reserve(tx, userId);
      await renders.insertActive(tx, { jobId, videoId, kind, userId, baseVersion: 0, base: identityEditList(5), next: identityEditList(5), clipId: null });
    });
    return jobId;
  }

  it('counts active renders of every kind and running ingests; finished ones free their place', async () => {
    const user = `wordcut:${randomUUID()}`;
    const jobs = new ActiveJobs(3, renders, videos);
    const first = await startRender(jobs, user);
    await startRender(jobs, user, 'clip');
    await database.ds.query(`INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id) VALUES ($1, 't', 'o', 'f', 'processing', 'upload', 'en', $2)`, [
      randomUUID(),
      user,
    ]);
    const e = await rejectedWith(startRender(jobs, user));
    expect(e).toMatchObject({ statusCode: 429, message: 'You already have 3 jobs running (the limit is 3). Wait for one to finish, then try again.' });
    await renders.end(first, 'failed', 'x');
    await expect(startRender(jobs, user)).resolves.toMatch(/^cut_/);
    // someone else is not counted against this user
    await expect(startRender(jobs, `wordcut:${randomUUID()}`)).resolves.toMatch(/^cut_/);
  });

  it('lets only one of three simultaneous requests take the last place', async () => {
    const user = `wordcut:${randomUUID()}`;
    const jobs = new ActiveJobs(1, renders, videos);
    const results = await Promise.allSettled([startRender(jobs, user), startRender(jobs, user), startRender(jobs, user)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.statusCode)).toEqual([429, 429]);
    expect(await renders.countActiveForUser(database.ds.manager, user)).toBe(1);
  });
});
