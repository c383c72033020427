import { jobStatusSchema, Subjects, jobCancelledEventSchema, jobCompletedEventSchema, jobFailedEventSchema, Consumers } from '@wordcut/contracts';
import type { ConsumerDef, Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { ExportCode, Messages } from './errors';
import { deleteExportCaptions } from './export-captions';
import { muteStep } from './export-plan';
import type { ExportStore } from './export-store';
import { runSubject, type ExportRunMessage } from './run-message';
import { announceUnreached } from './item-events';
import type { ExportMetrics } from './metrics';

export interface RenderWaitOptions {
  /** a render taking longer fails the export (default 30 min) */
  renderTimeoutMs?: number;
  /** a wait older than this is checked against the jobs service on each sweep (default 60 s) */
  recheckAfterMs?: number;
  /** rpc.jobs.get timeout (default 10 s) */
  rpcTimeoutMs?: number;
}

/** An export gives up after waiting for this many different renders (each superseded the last). */
export const MAX_RENDER_ROUNDS = 5;

type RenderEnd = { outcome: 'completed' } | { outcome: 'failed' | 'cancelled'; error: string };

/** One durable consumer per ending (one subject filter each, as older NATS servers require). */
export const RENDER_END_CONSUMERS = {
  completed: Consumers.exportRenderCompleted,
  failed: Consumers.exportRenderFailed,
  cancelled: Consumers.exportRenderCancelled,
} as const satisfies Record<string, ConsumerDef>;

/**
 * Exports waiting for a mute render. A waiting job holds no worker: the render job's end on the
 * JOBS stream sends it a new run message (completed) or fails it (failed, cancelled). Right after
 * a wait begins the render is looked up once, for a render that ended before the wait was
 * recorded; the export service's sweep repeats that lookup for old waits (an event that overtook the jobs
 * service's own record) and fails waits past the render timeout.
 */
export class RenderWaits {
  constructor(
    private readonly bus: Messaging,
    private readonly store: ExportStore,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly metrics: ExportMetrics | null,
    private readonly options: RenderWaitOptions = {},
  ) {}

  readonly consumers: ConsumerDef[] = Object.values(RENDER_END_CONSUMERS);

  async start(): Promise<void> {
    await this.bus.consume({ consumer: RENDER_END_CONSUMERS.completed, schema: jobCompletedEventSchema, handler: (m) => this.onRenderEnded(m.data.jobId, { outcome: 'completed' }) });
    await this.bus.consume({ consumer: RENDER_END_CONSUMERS.failed, schema: jobFailedEventSchema, handler: (m) => this.onRenderEnded(m.data.jobId, { outcome: 'failed', error: m.data.error }) });
    await this.bus.consume({ consumer: RENDER_END_CONSUMERS.cancelled, schema: jobCancelledEventSchema, handler: (m) => this.onRenderEnded(m.data.jobId, { outcome: 'cancelled', error: 'cancelled' }) });
  }

  /** The export waits for `renderJobId` to apply its `segments` mute segments. */
  async wait(exportJobId: string, renderJobId: string, segments: number): Promise<void> {
    const rounds = await this.store.jobs.awaitRender(exportJobId, renderJobId, muteStep(segments));
    if (rounds === null) return;
    if (rounds > MAX_RENDER_ROUNDS) {
      await this.fail(exportJobId, 'The library kept rendering the video instead of naming the files to upload.');
      return;
    }
    this.logger.info({ jobId: exportJobId, renderJobId, rounds }, 'export waits for a mute render');
    await this.recheck(renderJobId);
  }

  /** A render job ended: its waiting exports run again, or fail with it. */
  async onRenderEnded(renderJobId: string, end: RenderEnd): Promise<void> {
    for (const exportJobId of await this.store.jobs.waitingFor(renderJobId)) {
      if (end.outcome === 'completed') {
        // one run message per render waited for (the job's first run used the job id alone)
        await this.bus.publish(runSubject(exportJobId), { jobId: exportJobId } satisfies ExportRunMessage, { msgId: `${exportJobId}:${renderJobId}` });
        this.logger.info({ jobId: exportJobId, renderJobId }, 'mute render completed: the export goes on');
      } else {
        await this.fail(exportJobId, `Applying the mute segments failed (render job ${renderJobId}): ${end.error}`);
      }
    }
  }

  /** Part of the export service's sweep: waits past the render timeout fail; old waits look their render up once more. */
  async sweep(): Promise<void> {
    for (const w of await this.store.jobs.waitingLongerThan(this.options.renderTimeoutMs ?? 30 * 60_000)) {
      await this.fail(w.id, `Applying the mute segments took too long (render job ${w.renderJobId}).`);
    }
    const renders = new Set((await this.store.jobs.waitingLongerThan(this.options.recheckAfterMs ?? 60_000)).map((w) => w.renderJobId));
    for (const renderJobId of renders) await this.recheck(renderJobId);
  }

  /** Looks the render job up: if it has ended, acts as its event would. */
  private async recheck(renderJobId: string): Promise<void> {
    let job;
    try {
      job = await this.bus.request(Subjects.rpcJobGet, { jobId: renderJobId }, jobStatusSchema.nullable(), this.options.rpcTimeoutMs ?? 10_000);
    } catch (err) {
      this.logger.warn({ err, renderJobId }, 'could not look a render job up; its event or the next sweep will');
      return;
    }
    if (job?.status === 'completed') await this.onRenderEnded(renderJobId, { outcome: 'completed' });
    else if (job?.status === 'error') await this.onRenderEnded(renderJobId, { outcome: 'failed', error: job.error ?? 'error' });
    else if (job?.status === 'cancelled') await this.onRenderEnded(renderJobId, { outcome: 'cancelled', error: 'cancelled' });
  }

  private async fail(exportJobId: string, details: string): Promise<void> {
    const failed = await this.store.fail(exportJobId, { error: ExportCode.ExportFailed, message: Messages.exportFailed, details });
    if (!failed) return;
    this.metrics?.completed.inc({ status: 'failed' });
    this.logger.error({ jobId: exportJobId, details, unreached: failed.unreached.length }, 'export job failed waiting for its mute render');
    await announceUnreached(this.bus, this.logger, failed);
    await deleteExportCaptions(this.storage, this.logger, failed.job);
  }
}
