import { Streams, Subjects, type AnalyticsEventSummary, Consumers } from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import type { JobEventRecord } from './worker-figures';

export const jobEventsConsumer: ConsumerDef = Consumers.analyticsJobEvents;

/** Requests too: the time a job waited for a worker is its start minus its request. */
export const jobRequestsConsumer: ConsumerDef = Consumers.analyticsJobRequests;

const anyJobEvent = z.object({ jobId: z.string() }).passthrough();
const jobRequest = z.object({ jobId: z.string(), kind: z.string(), requestedAt: z.string() }).passthrough();

const E = `"analytics"."job_events"`;
/** an event's own time: `at` of lifecycle events, `requestedAt` of requests */
const EVENT_TIME = `COALESCE((payload->>'at')::timestamptz, (payload->>'requestedAt')::timestamptz, received_at)`;
/** the figures read at most this many events per question */
const MAX_EVENTS = 200_000;

/** Keeps every job request and lifecycle event once (keyed by its Nats-Msg-Id) for the dashboard's figures. */
export class JobEventRecorder {
  constructor(
    private readonly bus: Messaging,
    private readonly ds: DataSource,
  ) {}

  async start(): Promise<void> {
    await this.bus.provision([Streams.jobs], [jobEventsConsumer, jobRequestsConsumer]);
    await this.bus.consume({ consumer: jobEventsConsumer, schema: anyJobEvent, concurrency: 4, handler: (m) => this.record(m) });
    // the request's input (an edit list) is not needed: only the job, its kind and the time are kept
    await this.bus.consume({
      consumer: jobRequestsConsumer,
      schema: jobRequest,
      concurrency: 4,
      handler: (m) => this.record({ ...m, data: { jobId: m.data.jobId, kind: m.data.kind, requestedAt: m.data.requestedAt } }),
    });
  }

  async record(m: Pick<InboundMessage<{ jobId: string } & Record<string, unknown>>, 'data' | 'subject' | 'msgId' | 'streamSequence'>): Promise<void> {
    await this.ds.query(
      `INSERT INTO ${E} (event_id, subject, job_id, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (event_id) DO NOTHING`,
      [m.msgId ?? `seq:${m.subject}:${m.streamSequence}`, m.subject, m.data.jobId, JSON.stringify(m.data)],
    );
  }

  /** The events that happened in [from, to), with their times. */
  async between(from: Date, to: Date): Promise<JobEventRecord[]> {
    const rows = (await this.ds.query(
      `SELECT subject, job_id, ${EVENT_TIME} AS at, payload->>'error' AS error FROM ${E}
       WHERE received_at >= $1 AND ${EVENT_TIME} < $2 AND subject <> 'jobs.events.progress'
       ORDER BY received_at DESC LIMIT ${MAX_EVENTS}`,
      [from, to],
    )) as Array<{ subject: string; job_id: string; at: Date; error: string | null }>;
    const out: JobEventRecord[] = [];
    for (const r of rows) {
      const kind = kindOf(r.subject);
      if (kind) out.push({ kind, jobId: r.job_id, at: new Date(r.at), ...(r.error ? { error: r.error } : {}) });
    }
    return out;
  }

  /** Today's and the last 7 days' event counts, and the 7 days' count per metric (e.g. `jobs.completed`). */
  async summary(): Promise<AnalyticsEventSummary> {
    const metric = `CASE WHEN subject LIKE 'jobs.requested.%' THEN 'jobs.requested' ELSE replace(subject, 'jobs.events.', 'jobs.') END`;
    const [counts, byMetric] = await Promise.all([
      this.ds.query(
        `SELECT count(*) FILTER (WHERE received_at >= date_trunc('day', now()))::int AS today, count(*)::int AS week
         FROM ${E} WHERE received_at >= now() - interval '7 days'`,
      ) as Promise<Array<{ today: number; week: number }>>,
      this.ds.query(
        `SELECT ${metric} AS name, count(*)::int AS n FROM ${E} WHERE received_at >= now() - interval '7 days' GROUP BY 1 ORDER BY 2 DESC, 1`,
      ) as Promise<Array<{ name: string; n: number }>>,
    ]);
    return {
      summary: { todayCount: counts[0]?.today ?? 0, weekCount: counts[0]?.week ?? 0 },
      last7Days: byMetric.map((r) => ({ metricName: r.name, value: r.n })),
    };
  }
}

function kindOf(subject: string): JobEventRecord['kind'] | null {
  if (subject.startsWith(`${Subjects.jobRequested}.`)) return 'requested';
  const last = subject.slice(subject.lastIndexOf('.') + 1);
  return last === 'started' || last === 'completed' || last === 'failed' || last === 'cancelled' ? last : null;
}
