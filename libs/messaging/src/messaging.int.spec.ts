import { createLogger, ServiceMetrics, startTracing, withSpan, currentTraceId } from '@wordcut/platform';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Messaging, type ConsumeOptions, type ConsumerDef } from './messaging';
import { PermanentError } from './errors';

const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const payload = z.object({ n: z.number() });

async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Messaging over a real NATS JetStream', () => {
  let ns: string;
  let bus: Messaging;
  const metrics = new ServiceMetrics('test');

  beforeAll(() => startTracing('messaging-test'));

  beforeEach(async () => {
    ns = `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    bus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'test', logger: createLogger('test', 'silent'), metrics });
    await bus.provision([{ name: 'WORK', subjects: ['work.>'] }], []);
  });

  afterEach(async () => {
    for (const s of ['WORK', 'DLQ']) await bus.jsm.streams.delete(bus.streamName(s)).catch(() => undefined);
    await bus.close();
  });

  const consumer = (durable: string, over: Partial<ConsumerDef> = {}): ConsumerDef => ({
    stream: 'WORK',
    durable,
    filterSubject: 'work.>',
    ackWaitMs: 2000,
    maxDeliver: 3,
    backoff: { baseMs: 1000, maxMs: 60_000 },
    ...over,
  });

  /** Provisions the work consumer `durable` and handles what it delivers with `handler`. */
  async function handleWork(durable: string, handler: ConsumeOptions<z.infer<typeof payload>>['handler'], over: Partial<ConsumerDef> = {}): Promise<void> {
    const c = consumer(durable, over);
    await bus.provision([], [c]);
    await bus.consume({ consumer: c, schema: payload, handler });
  }

  it('stores a message once when the same Nats-Msg-Id is published twice', async () => {
    const first = await bus.publish('work.item', { n: 1 }, { msgId: 'same-id' });
    const second = await bus.publish('work.item', { n: 1 }, { msgId: 'same-id' });
    const other = await bus.publish('work.item', { n: 2 }, { msgId: 'other-id' });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(second.seq).toBe(first.seq);
    expect(other.duplicate).toBe(false);
    const info = await bus.jsm.streams.info(bus.streamName('WORK'));
    expect(info.state.messages).toBe(2);
  });

  it('moves a message whose handler always fails to the dead-letter stream after 3 deliveries', async () => {
    const attempts: number[] = [];
    await handleWork(
      'always-fails',
      async (m) => {
        attempts.push(m.deliveryCount);
        throw new Error(`boom #${m.deliveryCount}`);
      },
      { backoff: { baseMs: 50, maxMs: 60_000 } },
    );
    await bus.publish('work.resize', { n: 7 });
    const letters = await eventually(async () => {
      const l = await bus.readDeadLetters();
      return l.length ? l : undefined;
    });
    expect(attempts).toEqual([1, 2, 3]);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      subject: `${ns}.dlq.work.resize`,
      originalSubject: `${ns}.work.resize`,
      error: 'boom #3',
      deliveryCount: 3,
      data: { n: 7 },
    });
    // terminated: nothing left pending on the work consumer
    const info = await eventually(async () => {
      const i = await bus.jsm.consumers.info(bus.streamName('WORK'), 'always-fails');
      return i.num_ack_pending === 0 ? i : undefined;
    });
    expect(info.num_pending).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('dead-letters a payload that breaks the contract at once, and a PermanentError at once', async () => {
    const seen: number[] = [];
    await handleWork('strict', async (m) => {
      seen.push(m.data.n);
      if (m.data.n === 13) throw new PermanentError('unlucky input');
    });
    await bus.publish('work.a', { n: 'not a number' });
    await bus.publish('work.b', { n: 13 });
    await bus.publish('work.c', { n: 1 });
    const letters = await eventually(async () => {
      const l = await bus.readDeadLetters();
      return l.length === 2 ? l : undefined;
    });
    expect(letters.map((l) => [l.originalSubject, l.deliveryCount])).toEqual([
      [`${ns}.work.a`, 1],
      [`${ns}.work.b`, 1],
    ]);
    expect(letters[0]!.error).toMatch(/invalid message payload/);
    expect(letters[1]!.error).toBe('unlucky input');
    await eventually(async () => (seen.includes(1) ? true : undefined));
    expect(seen.sort()).toEqual([1, 13]);
  });

  it('redelivers a message nobody acknowledged, and dead-letters it after the last unacknowledged delivery', async () => {
    const c = consumer('crashy', { ackWaitMs: 1000 });
    await bus.provision([], [c]);
    bus.watchMaxDeliveries(c);
    await bus.publish('work.crash', { n: 3 });
    // a "worker" that takes the message and dies each time (never acks)
    const raw = await bus.js.consumers.get(bus.streamName('WORK'), 'crashy');
    const deliveries: number[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await raw.next({ expires: 5000 });
      expect(m).not.toBeNull();
      deliveries.push(m!.info.deliveryCount);
    }
    expect(deliveries).toEqual([1, 2, 3]);
    // a live worker keeps pulling: the server then finds the message out of deliveries
    expect(await raw.next({ expires: 2500 })).toBeNull();
    const letters = await eventually(async () => {
      const l = await bus.readDeadLetters();
      return l.length ? l : undefined;
    });
    expect(letters[0]).toMatchObject({ originalSubject: `${ns}.work.crash`, deliveryCount: 3, data: { n: 3 } });
    expect(letters[0]!.error).toMatch(/no acknowledgement/);
  });

  it('recreates a durable whose filter changed, resuming after its last acknowledged message', async () => {
    const before = consumer('moving', { filterSubject: 'work.old.>' });
    await bus.provision([], [before]);
    await bus.publish('work.old.a', { n: 1 });
    const raw = await bus.js.consumers.get(bus.streamName('WORK'), 'moving');
    const first = await raw.next({ expires: 3000 });
    await first!.ackAck();
    await bus.publish('work.new.b', { n: 2 });
    await bus.publish('work.old.c', { n: 3 });

    await bus.provision([], [{ ...before, filterSubject: 'work.new.>' }]);
    const seen: number[] = [];
    await bus.consume({ consumer: { ...before, filterSubject: 'work.new.>' }, schema: payload, handler: async (m) => void seen.push(m.data.n) });
    await bus.publish('work.new.d', { n: 4 });
    await eventually(async () => (seen.length >= 2 ? true : undefined));
    expect(seen).toEqual([2, 4]);
  });

  it('carries the trace id and correlation id from publisher to handler', async () => {
    const got: Array<string | undefined> = [];
    await handleWork('traced', async () => {
      got.push(currentTraceId());
    });
    const sent = await withSpan('test-publish', async () => {
      await bus.publish('work.trace', { n: 1 });
      return currentTraceId();
    });
    await eventually(async () => (got.length ? true : undefined));
    expect(sent).toMatch(/^[0-9a-f]{32}$/);
    expect(got[0]).toBe(sent);
  });

  it('answers request/reply and reports remote failures', async () => {
    bus.serve('rpc.double', payload, async (req) => {
      if (req.n < 0) throw new Error('negative');
      return { n: req.n * 2 };
    });
    await expect(bus.request('rpc.double', { n: 21 }, payload)).resolves.toEqual({ n: 42 });
    await expect(bus.request('rpc.double', { n: -1 }, payload)).rejects.toThrow(/negative/);
  });
});
