import { Subjects, type MediaIngestCommand, type VideoIngestProgressEvent } from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';

/** Fine-grained reports (download bytes, ffmpeg's -progress) are sent at most this often. */
export const PROGRESS_MIN_INTERVAL_MS = 1000;

/**
 * Publishes videoIngestProgress events of one ingest, in order, never going backwards, with
 * msgIds `<jobId>:ingest:progress:<n>`. Reports are queued (callers need not await them, e.g.
 * from ffmpeg's progress callback); a failed progress publish is logged, not fatal: the
 * completed/failed event that follows is what counts. Call flush() before the final event.
 */
export class IngestProgressReporter {
  private n = 0;
  private last = -1;
  private lastAt = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: Messaging,
    private readonly cmd: Pick<MediaIngestCommand, 'jobId' | 'videoId'>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new stage: always reported. */
  stage(progress: number, message: string): void {
    this.send(progress, message);
  }

  /** Progress inside a stage: reported when it moved by a whole percent and a second has passed. */
  update(progress: number, message: string): void {
    if (Math.floor(progress) <= Math.floor(this.last) || this.now() - this.lastAt < PROGRESS_MIN_INTERVAL_MS) return;
    this.send(progress, message);
  }

  /** Resolves once every queued report was published (or failed). */
  flush(): Promise<void> {
    return this.queue;
  }

  private send(progress: number, message: string): void {
    const value = Math.round(Math.min(100, Math.max(0, progress, this.last)) * 10) / 10;
    this.last = value;
    this.lastAt = this.now();
    const n = ++this.n;
    const event: VideoIngestProgressEvent = { jobId: this.cmd.jobId, videoId: this.cmd.videoId, progress: value, message, at: new Date().toISOString() };
    this.queue = this.queue.then(() =>
      this.bus.publish(Subjects.videoIngestProgress, event, { msgId: `${this.cmd.jobId}:ingest:progress:${n}` }).then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, jobId: this.cmd.jobId }, 'could not publish ingest progress'),
      ),
    );
  }
}
