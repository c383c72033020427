import { Subjects, type JobStatus } from '@wordcut/contracts';

/**
 * The broker as the gateway's edit service uses it, in memory: publishes are recorded (or refused
 * while `refusePublish` is set); rpc.jobs.get answers from `statuses`, any other request fails.
 */
export class FakeJobBus {
  readonly published: Array<{ subject: string; payload: unknown; msgId?: string }> = [];
  readonly statuses = new Map<string, Partial<JobStatus>>();
  refusePublish = false;

  async publish(subject: string, payload: unknown, opts: { msgId?: string } = {}) {
    if (this.refusePublish) throw new Error('nats: no responders');
    this.published.push({ subject, payload, msgId: opts.msgId });
    return { seq: this.published.length, duplicate: false };
  }

  async request(subject: string, payload: { jobId: string }) {
    if (subject !== Subjects.rpcJobGet) throw new Error(`unexpected request on ${subject}`);
    const s = this.statuses.get(payload.jobId);
    return s ? { error: null, ...s } : null;
  }

  /** the job-completed events published for `jobId` */
  completions(jobId: string) {
    return this.published.filter((p) => p.subject === Subjects.jobCompleted && (p.payload as { jobId: string }).jobId === jobId);
  }
}
