import { jobCancelSubject, Streams, Subjects, type JobStartedEvent } from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { z } from 'zod';

/** Why a job's work stopped: `jobs.cancel.<id>` reached this process. */
export class CancelledError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} was cancelled`);
  }
}

/**
 * The jobs one worker runs in this process, each with an AbortController that a cancel
 * (`jobs.cancel.<id>`, broadcast to every worker) aborts with a CancelledError.
 */
export class RunningJobs {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly bus: Messaging,
    private readonly logger: Logger,
  ) {}

  /** Starts hearing cancels. */
  listen(): void {
    this.bus.subscribe(`${Subjects.jobCancel}.*`, z.object({ jobId: z.string() }).passthrough(), (_subject, data) => {
      const ac = this.running.get(data.jobId);
      if (ac && !ac.signal.aborted) {
        this.logger.info({ jobId: data.jobId }, 'cancelling job');
        ac.abort(new CancelledError(data.jobId));
      }
    });
  }

  /** True when the job was cancelled before this delivery (its cancel is on the stream). */
  async cancelledBefore(jobId: string): Promise<boolean> {
    return (await this.bus.lastOnSubject(Streams.jobs.name, jobCancelSubject(jobId))) !== null;
  }

  /** Registers the job and announces it started; the controller aborts on cancel. */
  async begin(jobId: string, workerId: string, attempt: number): Promise<AbortController> {
    const ac = new AbortController();
    this.running.set(jobId, ac);
    const started: JobStartedEvent = { jobId, worker: workerId, attempt, at: new Date().toISOString() };
    await this.bus.publish(Subjects.jobStarted, started, { msgId: `${jobId}:started:${attempt}` });
    return ac;
  }

  end(jobId: string): void {
    this.running.delete(jobId);
  }

  get ids(): string[] {
    return [...this.running.keys()];
  }
}

/** True when the work stopped because the job was cancelled. */
export function wasCancelled(ac: AbortController): boolean {
  return ac.signal.aborted && ac.signal.reason instanceof CancelledError;
}
