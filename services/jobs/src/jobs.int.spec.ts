/**
 * The jobs service against a real Postgres (a throw-away database, migrated) and a real NATS
 * JetStream (a namespace of its own). A fake render worker on `media.render` acks commands,
 * or fails them for good (dead letter) when their summary asks it to.
 */
import {
  jobCancelSubject,
  jobEstimateSchema,
  jobRequestedSubject,
  jobStatusSchema,
  mediaProbeCommandSchema,
  mediaRenderCommandSchema,
  rpcJobCancelReplySchema,
  Headers,
  Retry,
  Streams,
  Subjects,
  type JobFailedEvent,
  type JobKind,
  type JobRequestedEvent,
  type MediaRenderCommand,
  type RenderJobInput,
} from '@wordcut/contracts';
import { Messaging, PermanentError, type ConsumerDef } from '@wordcut/messaging';
import { createLogger, migrate } from '@wordcut/platform';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { createTestDatabase, deleteNamespaceStreams, eventually, NATS_URL, uniqueSuffix } from '../../../tools/testing/env';
import { SCHEMA } from './config';
import { jobsDataSource } from './data-source';
import { JobStore } from './job-store';
import { DEAD_LETTERED_CODE, INVALID_INPUT_CODE, JOBS_CONSUMERS, JobsService } from './jobs.service';

const logger = createLogger('jobs-test', 'silent');

interface Seen {
  subject: string;
  data: { jobId: string } & Record<string, unknown>;
}

/** One namespace: the service under test, a client bus (gateway/worker side) and every jobs.* message seen on it. */
interface Harness {
  ns: string;
  service: JobsService;
  serviceBus: Messaging;
  bus: Messaging;
  seen: Seen[];
  close(): Promise<void>;
}

async function harness(store: JobStore): Promise<Harness> {
  const ns = `t${uniqueSuffix()}`;
  const serviceBus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'jobs-under-test', logger });
  const bus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'jobs-test-client', logger });
  await bus.provision([Streams.jobs, Streams.media], []);
  const seen: Seen[] = [];
  const sub = bus.nc.subscribe(`${ns}.jobs.>`);
  void (async () => {
    for await (const m of sub) seen.push({ subject: m.subject.slice(ns.length + 1), data: m.json() });
  })();
  return {
    ns,
    service: new JobsService(serviceBus, store, logger),
    serviceBus,
    bus,
    seen,
    close: async () => {
      await serviceBus.close();
      await bus.close();
      await deleteNamespaceStreams(ns);
    },
  };
}

describe('jobs service (real Postgres and NATS)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;
  let store: JobStore;
  let h: Harness;
  const fakeWorker: ConsumerDef = { stream: Streams.media.name, durable: 'fake-render', filterSubject: Subjects.mediaRender, ackWaitMs: 5000, maxDeliver: 1, backoff: Retry.redelivery };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = jobsDataSource(db.url);
    await ds.initialize();
    await migrate(ds, SCHEMA);
    store = new JobStore(ds);
    h = await harness(store);
    await h.service.start();
    await h.bus.provision([Streams.media], [fakeWorker]);
    await h.bus.consume({
      consumer: fakeWorker,
      schema: mediaRenderCommandSchema,
      handler: async (m) => {
        const cmd = m.data;
        if (cmd.summary === 'doomed') throw new PermanentError('the fake worker cannot render this');
        if (cmd.summary === 'fails-first') {
          const failed: JobFailedEvent = { jobId: cmd.jobId, error: 'Render failed: broken source', code: 'RENDER_FAILED', worker: 'fake-1', at: new Date().toISOString() };
          await h.bus.publish(Subjects.jobFailed, failed, { msgId: `${cmd.jobId}:failed` });
          await eventually(async () => ((await store.get(cmd.jobId))?.status === 'error' ? true : undefined), 10000, 'worker failure applied');
          throw new PermanentError('failed for good');
        }
        if (cmd.summary === 'reports-late') {
          // a busy machine's order: the dead letter is there before the worker's own report
          void (async () => {
            await eventually(async () => ((await h.bus.readDeadLetters()).some((d) => (d.data as { jobId: string }).jobId === cmd.jobId) ? true : undefined), 10000, 'dead letter written');
            const failed: JobFailedEvent = { jobId: cmd.jobId, error: 'Render failed: late report', code: 'RENDER_FAILED', worker: 'fake-1', at: new Date().toISOString() };
            await h.bus.publish(Subjects.jobFailed, failed, { msgId: `${cmd.jobId}:failed` });
          })();
          throw new PermanentError('failed for good');
        }
      },
    });
  });

  afterAll(async () => {
    await h?.close();
    await ds?.destroy();
    await db?.drop();
  });

  const renderInput = (userId: string | null, summary = 'Removed 2 words'): RenderJobInput => {
    const videoId = randomUUID();
    return {
      videoId,
      userId,
      inputKey: `videos/${videoId}/original.mp4`,
      outputKey: `videos/${videoId}/renders/${randomUUID()}.mp4`,
      segments: [
        { start: 0, end: 1.5 },
        { start: 2.25, end: 4 },
      ],
      volumes: [{ start: 0.5, end: 1, volume: 0 }],
      captions: null,
      reframe: null,
      summary,
    };
  };

  function requestEvent(kind: JobKind, input: JobRequestedEvent['input']): JobRequestedEvent {
    return { jobId: `${kind}_${randomUUID()}`, kind, input, requestedAt: new Date().toISOString() };
  }

  /** What the gateway does: one message per job on its own subject, msgId = job id. */
  async function request(e: JobRequestedEvent, on: Harness = h): Promise<void> {
    await on.bus.publish(jobRequestedSubject(e.jobId), e, { msgId: e.jobId });
  }

  const recorded = (jobId: string) => eventually(() => store.get(jobId).then((j) => j ?? undefined), 15000, `job ${jobId} recorded`);
  const inStatus = (jobId: string, status: string) =>
    eventually(async () => {
      const j = await store.get(jobId);
      return j?.status === status ? j : undefined;
    }, 15000, `job ${jobId} ${status}`);

  /** A render job of `kind` for `owner`, requested and recorded. */
  async function recordedRender(kind: JobKind, owner: string | null): Promise<JobRequestedEvent> {
    const e = requestEvent(kind, renderInput(owner));
    await request(e);
    await recorded(e.jobId);
    return e;
  }

  /** A render job of `kind` for `owner` that worker w1 has started (attempt 1). */
  async function startedRender(kind: JobKind, owner: string): Promise<JobRequestedEvent> {
    const e = await recordedRender(kind, owner);
    await h.bus.publish(Subjects.jobStarted, { jobId: e.jobId, worker: 'w1', attempt: 1, at: new Date().toISOString() });
    await inStatus(e.jobId, 'processing');
    return e;
  }

  /** Every handled message of a durable consumer is acked: nothing more will change for what was published before. */
  async function drained(durable: string, stream: string, on: Harness = h): Promise<void> {
    await eventually(async () => {
      const i = await on.bus.jsm.consumers.info(on.bus.streamName(stream), durable);
      return i.num_pending === 0 && i.num_ack_pending === 0 ? true : undefined;
    }, 15000, `${durable} drained`);
  }

  /** Messages stored on a stream subject, with their msgId. */
  async function stored(stream: string, subject: string, on: Harness = h): Promise<Array<{ msgId: string; data: { jobId: string } & Record<string, unknown> }>> {
    const name = on.bus.streamName(stream);
    const info = await on.bus.jsm.streams.info(name);
    const out: Array<{ msgId: string; data: { jobId: string } & Record<string, unknown> }> = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const m = await on.bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
      if (m && m.subject === on.bus.subject(subject)) out.push({ msgId: m.header.get(Headers.msgId), data: m.json() });
    }
    return out;
  }

  const renderCommandsOf = async (jobId: string, on: Harness = h) => (await stored(Streams.media.name, Subjects.mediaRender, on)).filter((m) => m.data.jobId === jobId);
  const seenOf = (jobId: string, subject: string, on: Harness = h) => on.seen.filter((s) => s.subject === subject && s.data.jobId === jobId);
  const getJob = (jobId: string) => h.bus.request(Subjects.rpcJobGet, { jobId }, jobStatusSchema.nullable());
  const cancelJob = (jobId: string, userId: string | null) => h.bus.request(Subjects.rpcJobCancel, { jobId, userId }, rpcJobCancelReplySchema);

  it('records a render request with its video and user and dispatches one media.render, even when the request comes again', async () => {
    const input = renderInput('user-a');
    const e = requestEvent('cut', input);
    await request(e);
    const job = await recorded(e.jobId);
    expect(job).toMatchObject({ id: e.jobId, kind: 'cut', status: 'pending', videoId: input.videoId, userId: 'user-a', result: null });

    // the same request delivered again: as a second stream message, and as a redelivery after a lost ack
    await h.bus.publish(jobRequestedSubject(e.jobId), e, { msgId: `${e.jobId}:again` });
    await drained(JOBS_CONSUMERS.requests.durable, Streams.jobs.name);
    await h.service.onRequested(e);

    const commands = await renderCommandsOf(e.jobId);
    expect(commands).toHaveLength(1);
    expect(commands[0]!.msgId).toBe(`${e.jobId}:${Subjects.mediaRender}`);
    const command: MediaRenderCommand = mediaRenderCommandSchema.parse(commands[0]!.data);
    expect(command).toEqual({ ...input, jobId: e.jobId, kind: 'cut', requestedAt: e.requestedAt });

    expect(await getJob(e.jobId)).toMatchObject({ id: e.jobId, status: 'pending', videoId: input.videoId, userId: 'user-a' });
    expect(await store.transitions(e.jobId)).toEqual([{ from: null, to: 'pending', worker: null }]);
    const row = (await ds.query(`SELECT video_id, user_id FROM jobs.jobs WHERE id = $1`, [e.jobId])) as Array<{ video_id: string; user_id: string }>;
    expect(row).toEqual([{ video_id: input.videoId, user_id: 'user-a' }]);
  });

  it('still sends probe jobs to media.probe, without a video or user', async () => {
    const e = requestEvent('probe', { objectKey: `uploads/${randomUUID()}.mp4`, originalName: 'a.mp4', sizeBytes: 1234 });
    await request(e);
    const job = await recorded(e.jobId);
    expect(job).toMatchObject({ kind: 'probe', status: 'pending', videoId: null, userId: null });
    const commands = await eventually(async () => {
      const c = (await stored(Streams.media.name, Subjects.mediaProbe)).filter((m) => m.data.jobId === e.jobId);
      return c.length ? c : undefined;
    });
    expect(commands).toHaveLength(1);
    expect(mediaProbeCommandSchema.parse(commands[0]!.data)).toEqual({ jobId: e.jobId, objectKey: (e.input as { objectKey: string }).objectKey });
    expect(await renderCommandsOf(e.jobId)).toHaveLength(0);
  });

  it('fails a request whose input does not fit its kind, and says so on jobs.events.failed', async () => {
    const e = requestEvent('mute', { objectKey: 'uploads/x.mp4', originalName: 'x.mp4', sizeBytes: 1 });
    await request(e);
    const job = await inStatus(e.jobId, 'error');
    expect(job.error).toMatch(/invalid/i);
    const failed = await eventually(() => {
      const f = seenOf(e.jobId, Subjects.jobFailed);
      return f.length ? f : undefined;
    });
    expect(failed[0]!.data).toMatchObject({ jobId: e.jobId, code: INVALID_INPUT_CODE, worker: 'jobs' });
    expect(await renderCommandsOf(e.jobId)).toHaveLength(0);
  });

  it('cancels a job for its owner: the record, jobs.events.cancelled and jobs.cancel.<id>, once', async () => {
    const e = await startedRender('filler', 'owner-1');
    await h.bus.publish(Subjects.jobProgress, { jobId: e.jobId, progress: 30, message: 'Rendering', estimatedTimeRemaining: 5, at: new Date().toISOString() });
    await eventually(async () => ((await store.get(e.jobId))?.progress === 30 ? true : undefined));

    const reply = await cancelJob(e.jobId, 'owner-1');
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    expect(reply.job).toMatchObject({ id: e.jobId, status: 'cancelled', message: 'Cancelled', progress: 30, userId: 'owner-1' });
    expect(reply.job.completedAt).not.toBeNull();

    const cancelled = await eventually(() => (seenOf(e.jobId, Subjects.jobCancelled).length ? seenOf(e.jobId, Subjects.jobCancelled) : undefined));
    expect(cancelled[0]!.data).toMatchObject({ jobId: e.jobId, by: 'owner-1' });
    const stop = await eventually(() => (seenOf(e.jobId, jobCancelSubject(e.jobId)).length ? seenOf(e.jobId, jobCancelSubject(e.jobId)) : undefined));
    expect(stop[0]!.data).toEqual({ jobId: e.jobId, at: expect.any(String) });
    // both kept on the JOBS stream: a worker that picks the command up later still sees the cancel
    expect(await h.bus.lastOnSubject(Streams.jobs.name, jobCancelSubject(e.jobId))).toMatchObject({ jobId: e.jobId });
    expect((await stored(Streams.jobs.name, Subjects.jobCancelled)).filter((m) => m.data.jobId === e.jobId).map((m) => m.msgId)).toEqual([`${e.jobId}:cancelled`]);
    expect((await stored(Streams.jobs.name, jobCancelSubject(e.jobId))).map((m) => m.msgId)).toEqual([`${e.jobId}:cancel`]);

    // a second cancel: finished; the lifecycle consumer saw jobs.events.cancelled and changed nothing
    expect(await cancelJob(e.jobId, 'owner-1')).toEqual({ ok: false, reason: 'finished', status: 'cancelled' });
    await drained(JOBS_CONSUMERS.lifecycle.durable, Streams.jobs.name);
    expect((await store.transitions(e.jobId)).map((t) => t.to)).toEqual(['pending', 'processing', 'cancelled']);
    expect(seenOf(e.jobId, Subjects.jobCancelled)).toHaveLength(1);
  });

  it('changes nothing of a cancelled job on later started, progress and completed events', async () => {
    const e = await startedRender('caption', 'owner-2');
    expect((await cancelJob(e.jobId, 'owner-2')).ok).toBe(true);
    const before = await store.get(e.jobId);

    const at = new Date().toISOString();
    await h.bus.publish(Subjects.jobProgress, { jobId: e.jobId, progress: 80, message: 'Rendering', estimatedTimeRemaining: 1, at });
    await h.bus.publish(Subjects.jobStarted, { jobId: e.jobId, worker: 'w2', attempt: 2, at });
    await h.bus.publish(Subjects.jobCompleted, { jobId: e.jobId, result: { path: 'smart' }, worker: 'w2', at });
    await drained(JOBS_CONSUMERS.lifecycle.durable, Streams.jobs.name);
    // and straight at the store
    await store.markStarted(e.jobId, 3, 'w3');
    await store.markProgress(e.jobId, 90, 'Rendering', 0);
    expect(await store.markCompleted(e.jobId, { path: 'smart' }, 'w3')).toBe(false);
    expect(await store.markFailed(e.jobId, 'late', 'w3')).toBe(false);

    const after = await store.get(e.jobId);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ status: 'cancelled', progress: 0, attempts: 1, result: null, message: 'Cancelled' });
    expect((await store.transitions(e.jobId)).map((t) => t.to)).toEqual(['pending', 'processing', 'cancelled']);
  });

  it('forbids a cancel by anyone but the owner', async () => {
    const e = await recordedRender('silence', 'owner-3');
    expect(await cancelJob(e.jobId, 'someone-else')).toEqual({ ok: false, reason: 'forbidden', status: null });
    expect(await cancelJob(e.jobId, null)).toEqual({ ok: false, reason: 'forbidden', status: null });
    expect((await store.get(e.jobId))?.status).toBe('pending');
    expect(await h.bus.lastOnSubject(Streams.jobs.name, jobCancelSubject(e.jobId))).toBeNull();
    expect(seenOf(e.jobId, Subjects.jobCancelled)).toHaveLength(0);
  });

  it('forbids every cancel of a job without an owner', async () => {
    const e = await recordedRender('cut', null);
    expect(await cancelJob(e.jobId, 'anyone')).toEqual({ ok: false, reason: 'forbidden', status: null });
    expect(await cancelJob(e.jobId, null)).toEqual({ ok: false, reason: 'forbidden', status: null });
    expect((await store.get(e.jobId))?.status).toBe('pending');
  });

  it('answers finished for a job that already ended, and not_found for an unknown one', async () => {
    const e = await startedRender('reorder', 'owner-4');
    const at = new Date().toISOString();
    const summary = { path: 'smart', fallbackReason: null, audio: 'copy-packets', encodedShare: 0.1, outputDurationSec: 3.25, sizeBytes: 1000, renderMs: 40 };
    await h.bus.publish(Subjects.jobCompleted, { jobId: e.jobId, result: summary, worker: 'w1', at });
    const done = await inStatus(e.jobId, 'completed');
    expect(done.result).toEqual(summary);

    expect(await cancelJob(e.jobId, 'owner-4')).toEqual({ ok: false, reason: 'finished', status: 'completed' });
    expect((await store.get(e.jobId))?.status).toBe('completed');
    expect(await cancelJob(`cut_${randomUUID()}`, 'owner-4')).toEqual({ ok: false, reason: 'not_found', status: null });
  });

  it("lists a user's jobs of the last 24 hours, newest first, up to the limit", async () => {
    const user = `lister-${uniqueSuffix()}`;
    const ids: string[] = [];
    for (const kind of ['cut', 'clip', 'mute'] as const) {
      const e = requestEvent(kind, renderInput(user));
      await request(e);
      await recorded(e.jobId);
      ids.push(e.jobId);
    }
    const other = requestEvent('cut', renderInput(`other-${uniqueSuffix()}`));
    await request(other);
    await recorded(other.jobId);
    await ds.query(`UPDATE jobs.jobs SET created_at = now() - interval '25 hours' WHERE id = $1`, [ids[0]]);

    const list = (limit?: number) => h.bus.request(Subjects.rpcJobList, limit === undefined ? { userId: user } : { userId: user, limit }, z.array(jobStatusSchema));
    const all = await list(10);
    expect(all.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    expect(all.every((j) => j.userId === user && j.status === 'pending')).toBe(true);
    expect(all[0]).toMatchObject({ kind: 'mute', videoId: expect.any(String) });
    expect((await list(1)).map((j) => j.id)).toEqual([ids[2]]);
    expect((await list()).map((j) => j.id)).toEqual([ids[2], ids[1]]);
    expect(await h.bus.request(Subjects.rpcJobList, { userId: `nobody-${uniqueSuffix()}` }, z.array(jobStatusSchema))).toEqual([]);
  });

  it('estimates from recent completed jobs of the kind on media of about the same length (rpc.jobs.estimate)', async () => {
    // an unusual length, so jobs of other tests are not comparable
    const sizeSec = 4321.5;
    const estimate = (size: number | null) => h.bus.request(Subjects.rpcJobsEstimate, { kind: 'caption', sizeSec: size }, jobEstimateSchema);
    expect(await estimate(sizeSec)).toEqual({ typicalSec: null, basedOn: 0 });
    for (const sec of [8, 10, 30]) {
      await ds.query(
        `INSERT INTO jobs.jobs (id, kind, status, progress, input, result, created_at, updated_at, completed_at)
         VALUES ($1, 'caption', 'completed', 100, '{}'::jsonb, $2::jsonb, now() - make_interval(secs => $3), now(), now())`,
        [`caption_${randomUUID()}`, JSON.stringify({ outputDurationSec: sizeSec }), sec],
      );
    }
    const answer = await estimate(sizeSec);
    expect(answer.basedOn).toBe(3);
    expect(answer.typicalSec).toBeGreaterThanOrEqual(10);
    expect(answer.typicalSec).toBeLessThan(11);
  });

  it('fails a job whose media.render was dead-lettered and publishes jobs.events.failed', async () => {
    const e = requestEvent('cut', renderInput('owner-5', 'doomed'));
    await request(e);
    const job = await inStatus(e.jobId, 'error');
    expect(job.error).toMatch(/failed after several attempts/);
    const failed = await eventually(() => (seenOf(e.jobId, Subjects.jobFailed).length ? seenOf(e.jobId, Subjects.jobFailed) : undefined));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ jobId: e.jobId, code: DEAD_LETTERED_CODE, worker: 'jobs', error: job.error });
    expect((await h.bus.readDeadLetters()).some((d) => d.originalSubject === h.bus.subject(Subjects.mediaRender) && (d.data as { jobId: string }).jobId === e.jobId)).toBe(true);
    // our own failure event comes back through the lifecycle consumer: a no-op
    await drained(JOBS_CONSUMERS.lifecycle.durable, Streams.jobs.name);
    expect((await store.transitions(e.jobId)).map((t) => t.to)).toEqual(['pending', 'error']);
  });

  it('applies a failure a worker reported once; the dead letter that follows publishes nothing more', async () => {
    const e = requestEvent('clip', renderInput('owner-6', 'fails-first'));
    await request(e);
    const job = await inStatus(e.jobId, 'error');
    expect(job.error).toBe('Render failed: broken source');
    await eventually(async () => ((await h.bus.readDeadLetters()).some((d) => (d.data as { jobId: string }).jobId === e.jobId) ? true : undefined));
    await drained(JOBS_CONSUMERS.deadLetters.durable, Streams.deadLetter.name);
    await drained(JOBS_CONSUMERS.lifecycle.durable, Streams.jobs.name);
    expect((await store.get(e.jobId))?.error).toBe('Render failed: broken source');
    expect(seenOf(e.jobId, Subjects.jobFailed).map((s) => s.data['worker'])).toEqual(['fake-1']);
    expect((await store.transitions(e.jobId)).map((t) => [t.to, t.worker])).toEqual([
      ['pending', null],
      ['error', 'fake-1'],
    ]);
  });

  it("keeps the worker's own error when its report arrives after the dead letter", async () => {
    const e = requestEvent('cut', renderInput('owner-7', 'reports-late'));
    await request(e);
    const job = await inStatus(e.jobId, 'error');
    expect(job.error).toBe('Render failed: late report');
    await drained(JOBS_CONSUMERS.deadLetters.durable, Streams.deadLetter.name);
    expect(seenOf(e.jobId, Subjects.jobFailed).map((s) => s.data['worker'])).toEqual(['fake-1']);
    expect((await store.transitions(e.jobId)).map((t) => [t.to, t.worker])).toEqual([
      ['pending', null],
      ['error', 'fake-1'],
    ]);
  });

  describe('before the request is recorded (service not consuming yet)', () => {
    let early: Harness;

    beforeAll(async () => {
      early = await harness(store);
    });

    afterAll(async () => {
      await early?.close();
    });

    it('shows the request as pending from the stream, lets its owner cancel it, and then never dispatches it', async () => {
      const input = renderInput('owner-7');
      const e = requestEvent('cut', input);
      await request(e, early);

      expect(await early.service.get(e.jobId)).toMatchObject({ id: e.jobId, kind: 'cut', status: 'pending', videoId: input.videoId, userId: 'owner-7', createdAt: e.requestedAt });
      expect(await store.get(e.jobId)).toBeNull();
      expect(await early.service.cancel({ jobId: e.jobId, userId: 'someone-else' })).toEqual({ ok: false, reason: 'forbidden', status: null });

      const reply = await early.service.cancel({ jobId: e.jobId, userId: 'owner-7' });
      expect(reply).toMatchObject({ ok: true, job: { id: e.jobId, status: 'cancelled', videoId: input.videoId, userId: 'owner-7' } });
      expect(await early.bus.lastOnSubject(Streams.jobs.name, jobCancelSubject(e.jobId))).toMatchObject({ jobId: e.jobId });

      // now the service starts and reads the request: recorded already, cancelled, nothing dispatched
      await early.service.start();
      await drained(JOBS_CONSUMERS.requests.durable, Streams.jobs.name, early);
      await drained(JOBS_CONSUMERS.lifecycle.durable, Streams.jobs.name, early);
      expect(await renderCommandsOf(e.jobId, early)).toHaveLength(0);
      expect((await store.get(e.jobId))?.status).toBe('cancelled');
      expect((await store.transitions(e.jobId)).map((t) => t.to)).toEqual(['pending', 'cancelled']);
      expect(seenOf(e.jobId, Subjects.jobCancelled, early)).toHaveLength(1);
    });
  });
});
