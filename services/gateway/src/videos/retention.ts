import { StorageKeys } from '@wordcut/contracts';
import type { Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import type { DataSource } from 'typeorm';
import type { RateLimitStore } from '../limits/limits';
import type { VideoStore } from './video-store';
import type { VideoDeletion } from '../operator/video-deletion';

/** Videos deleted per sweep at most (the next sweep takes the rest). */
const SWEEP_BATCH = 100;
/** Rate-limit windows older than this are dropped by every sweep. */
const RATE_WINDOW_KEEP_MS = 24 * 3600 * 1000;

export interface RetentionOptions {
  /** days without an owner opening a video before it goes; 0 keeps everything */
  days: number;
  intervalMs: number;
}

/**
 * The retention sweep: unfinished deletions are finished first; then videos nobody opened for `days` are deleted with every object they own
 * (original, proxy, renders, clips, captions, waveform), their rows cascading. One gateway replica
 * sweeps at a time (a session advisory lock); the others skip that round.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly videos: VideoStore,
    private readonly storage: ObjectStorage,
    private readonly rateLimits: RateLimitStore,
    private readonly logger: Logger,
    private readonly options: RetentionOptions,
    /** deletions a storage failure left marked are finished here */
    private readonly deletions?: VideoDeletion,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => this.logger.error({ err }, 'retention sweep failed')), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One sweep; answers how many videos it deleted (0 when another replica holds the lock). */
  async sweep(now: Date = new Date()): Promise<number> {
    const runner = this.ds.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(hashtext('wordcut:retention')) AS locked`)) as [{ locked: boolean }];
      if (!locked) return 0;
      try {
        await this.rateLimits.prune(new Date(now.getTime() - RATE_WINDOW_KEEP_MS));
        if (this.deletions) await this.deletions.finishMarked(SWEEP_BATCH, now);
        if (this.options.days <= 0) return 0;
        const before = new Date(now.getTime() - this.options.days * 24 * 3600 * 1000);
        let deleted = 0;
        for (const video of await this.videos.untouchedSince(before, SWEEP_BATCH)) {
          // objects first: a failure leaves the row, so the next sweep tries again
          const objects = await this.storage.deletePrefix(StorageKeys.videoPrefix(video.id));
          await this.videos.delete(video.id);
          deleted++;
          this.logger.info({ videoId: video.id, objects, accessedBefore: before.toISOString() }, 'video removed by retention');
        }
        return deleted;
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext('wordcut:retention'))`);
      }
    } finally {
      await runner.release();
    }
  }
}
