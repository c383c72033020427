import { Streams, type JobStatusValue } from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { DataSource } from 'typeorm';
import { z } from 'zod';

export const jobEventsConsumer: ConsumerDef = {
  stream: Streams.jobs.name,
  durable: 'analytics-job-events',
  filterSubject: 'jobs.events.>',
  ackWaitMs: 30000,
  maxDeliver: 3,
};

const anyJobEvent = z.object({ jobId: z.string() }).passthrough();

/** Keeps every job lifecycle event once (keyed by its Nats-Msg-Id) for the dashboard's figures. */
export class JobEventRecorder {
  constructor(
    private readonly bus: Messaging,
    private readonly ds: DataSource,
  ) {}

  async start(): Promise<void> {
    await this.bus.provision([Streams.jobs], [jobEventsConsumer]);
    await this.bus.consume({ consumer: jobEventsConsumer, schema: anyJobEvent, concurrency: 4, handler: (m) => this.record(m) });
  }

  async record(m: InboundMessage<z.infer<typeof anyJobEvent>>): Promise<void> {
    await this.ds.query(
      `INSERT INTO "analytics"."job_events" (event_id, subject, job_id, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (event_id) DO NOTHING`,
      [m.msgId ?? `seq:${m.streamSequence}`, m.subject, m.data.jobId, JSON.stringify(m.data)],
    );
  }

  /** Counts of finished jobs in a window, by outcome. */
  async outcomes(sinceHours = 24): Promise<Partial<Record<JobStatusValue, number>>> {
    const rows = (await this.ds.query(
      `SELECT subject, count(*)::int AS n FROM "analytics"."job_events"
       WHERE received_at > now() - make_interval(hours => $1) AND subject IN ('jobs.events.completed', 'jobs.events.failed')
       GROUP BY subject`,
      [sinceHours],
    )) as Array<{ subject: string; n: number }>;
    const out: Partial<Record<JobStatusValue, number>> = {};
    for (const r of rows) out[r.subject.endsWith('completed') ? 'completed' : 'error'] = r.n;
    return out;
  }
}
