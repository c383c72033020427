/**
 * The pure side of the limits: the 429 with Retry-After, and the running-jobs rule (renders plus
 * ingests of the user, under the user's lock) with in-memory counts. The SQL of RateLimitStore and
 * the counting queries are covered by limits.int.spec.ts against Postgres.
 */
import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { EntityManager } from 'typeorm';
import type { RenderStore } from '../edits/render-store';
import type { VideoStore } from '../videos/video-store';
import { ACTIVE_JOBS_RETRY_AFTER_SEC, ActiveJobs, tooManyRequests } from './limits';

describe('tooManyRequests', () => {
  it('is a 429 TOO_MANY_REQUESTS whose retryAfter is whole seconds, at least 1', () => {
    const e = tooManyRequests('Slow down.', 12.2);
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ statusCode: 429, code: ErrorCode.TooManyRequests, message: 'Slow down.', extra: { retryAfter: 13 } });
    expect(tooManyRequests('x', 0).extra).toEqual({ retryAfter: 1 });
    expect(tooManyRequests('x', -5).extra).toEqual({ retryAfter: 1 });
    expect(tooManyRequests('x', 3600).extra).toEqual({ retryAfter: 3600 });
  });
});

describe('ActiveJobs.reserve', () => {
  function activeJobs(limit: number, renders: number, ingests: number) {
    const queries: Array<{ sql: string; params: unknown[] }> = [];
    const m = { query: async (sql: string, params: unknown[]) => void queries.push({ sql, params }) } as unknown as EntityManager;
    const jobs = new ActiveJobs(
      limit,
      { countActiveForUser: async (_m: EntityManager, _u: string) => renders } as unknown as RenderStore,
      { countIngestingForOwner: async (_m: EntityManager, _u: string) => ingests } as unknown as VideoStore,
    );
    return { jobs, m, queries };
  }

  it("takes the user's lock in the caller's transaction before counting", async () => {
    const { jobs, m, queries } = activeJobs(3, 0, 0);
    await jobs.reserve(m, 'user-1');
    expect(queries).toEqual([{ sql: expect.stringContaining('pg_advisory_xact_lock'), params: ['user-1'] }]);
  });

  it('lets a user below the limit start one more, counting renders and ingests together', async () => {
    const below = activeJobs(3, 1, 1);
    await expect(below.jobs.reserve(below.m, 'u')).resolves.toBeUndefined();
    const { jobs, m } = activeJobs(3, 2, 1);
    const e = await jobs.reserve(m, 'u').catch((err: unknown) => err as AppError);
    expect(e).toMatchObject({
      statusCode: 429,
      message: 'You already have 3 jobs running (the limit is 3). Wait for one to finish, then try again.',
      extra: { retryAfter: ACTIVE_JOBS_RETRY_AFTER_SEC },
    });
  });

  it('says "job" for one', async () => {
    const { jobs, m } = activeJobs(1, 0, 1);
    await expect(jobs.reserve(m, 'u')).rejects.toThrow('You already have 1 job running (the limit is 1). Wait for one to finish, then try again.');
  });
});
