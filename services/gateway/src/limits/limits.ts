import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { RenderStore } from '../edits/render-store';
import type { VideoStore } from '../videos/video-store';

/** Seconds a caller over the running-jobs limit is asked to wait before trying again. */
export const ACTIVE_JOBS_RETRY_AFTER_SEC = 15;

/** A 429 with Retry-After (seconds). */
export function tooManyRequests(message: string, retryAfterSec: number): AppError {
  return new AppError(429, ErrorCode.TooManyRequests, message, undefined, { retryAfter: Math.max(1, Math.ceil(retryAfterSec)) });
}

/**
 * Fixed-window request counters in `library.rate_limits` (shared by every gateway replica): one
 * row per key and window, incremented atomically. Old windows are removed as new ones start.
 */
export class RateLimitStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * Counts one request for `key` in the current window of `windowSec`; over `limit`, refuses with
   * 429 and the seconds until the window ends (the refused request is counted too).
   */
  async hit(key: string, limit: number, windowSec: number, message: string, now: Date = new Date()): Promise<void> {
    const windowMs = windowSec * 1000;
    const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    const rows = (await this.ds.query(
      `INSERT INTO library.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = library.rate_limits.count + 1
       RETURNING count`,
      [key, start],
    )) as { count: number }[];
    const count = rows[0]!.count;
    if (count === 1) await this.ds.query(`DELETE FROM library.rate_limits WHERE key = $1 AND window_start < $2`, [key, start]);
    if (count > limit) throw tooManyRequests(message, (start.getTime() + windowMs - now.getTime()) / 1000);
  }

  /** How many requests `key` made in the current window of `windowSec` (nothing is counted). */
  async count(key: string, windowSec: number, now: Date = new Date()): Promise<number> {
    const windowMs = windowSec * 1000;
    const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    const rows = (await this.ds.query(`SELECT count FROM library.rate_limits WHERE key = $1 AND window_start = $2`, [key, start])) as { count: number }[];
    return rows[0]?.count ?? 0;
  }

  /** Removes every window that ended before `before` (keys that stopped calling). */
  async prune(before: Date): Promise<number> {
    const [, deleted] = (await this.ds.query(`DELETE FROM library.rate_limits WHERE window_start < $1`, [before])) as [unknown[], number];
    return deleted;
  }
}

/**
 * Running work per identity: active renders (edits, captions, clips) plus videos of theirs whose
 * transcript is being built. Callers hold the user's lock (`lockUser`) while counting and adding
 * one, so two requests at once cannot both take the last place.
 */
export class ActiveJobs {
  constructor(
    private readonly limit: number,
    private readonly renders: RenderStore,
    private readonly videos: VideoStore,
  ) {}

  static async lockUser(m: EntityManager, userId: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('wordcut:active-jobs'), hashtext($1))`, [userId]);
  }

  /** Inside `m`'s transaction: 429 when `userId` already runs as many jobs as allowed. */
  async reserve(m: EntityManager, userId: string): Promise<void> {
    await ActiveJobs.lockUser(m, userId);
    const running = (await this.renders.countActiveForUser(m, userId)) + (await this.videos.countIngestingForOwner(m, userId));
    if (running >= this.limit) {
      throw tooManyRequests(
        `You already have ${running} ${running === 1 ? 'job' : 'jobs'} running (the limit is ${this.limit}). Wait for one to finish, then try again.`,
        ACTIVE_JOBS_RETRY_AFTER_SEC,
      );
    }
  }
}
