/**
 * The one JetStream adapter: connecting, publishing, request/reply, broadcasts and the loops of
 * durable consumers. Provisioning, delivery handling and dead letters live in provision.ts,
 * delivery.ts and dead-letters.ts.
 */
import { jetstream, jetstreamManager, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { Headers } from '@wordcut/contracts';
import { correlationIdFrom, runWithContext, withSpanFromCarrier } from '@wordcut/platform';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { natsConnectOptions, type MessagingOptions } from './connection';
import { deadLetter, readDeadLetters, type DeadLetter, type DeliveryBus } from './dead-letters';
import { handleDelivery, type ConsumeOptions } from './delivery';
import { RemoteError } from './errors';
import { provisionStreams, type ConsumerDef, type StreamDef } from './provision';
import { carrierOf, isNotFound, outboundHeaders, safeJson } from './wire';

export { natsConnectOptions, type MessagingOptions } from './connection';
export type { DeadLetter } from './dead-letters';
export type { ConsumeOptions, InboundMessage } from './delivery';
export type { ConsumerDef, StreamDef } from './provision';

/**
 * The one JetStream adapter. Subjects and stream names given to it are relative; it
 * prefixes them with the namespace. Every publish carries a Nats-Msg-Id (for de-duplication),
 * the correlation id and the W3C trace context; every handler runs inside both again.
 */
export class Messaging {
  private readonly running = new Set<ConsumerMessages>();
  private readonly subscriptions: Subscription[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;
  /** what delivery handling and dead-lettering use of this adapter */
  private readonly bus: DeliveryBus;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly options: MessagingOptions,
  ) {
    this.bus = { js, options, subject: (relative) => this.subject(relative) };
  }

  static async connect(o: MessagingOptions): Promise<Messaging> {
    const nc = await connect(natsConnectOptions(o));
    const jsm = await jetstreamManager(nc);
    return new Messaging(nc, jetstream(nc), jsm, o);
  }

  subject(relative: string): string {
    return `${this.options.namespace}.${relative}`;
  }

  streamName(relative: string): string {
    return `${this.options.namespace.toUpperCase()}_${relative}`;
  }

  /** Creates or updates streams (the dead-letter stream always) and durable pull consumers. */
  async provision(streams: readonly StreamDef[], consumers: readonly ConsumerDef[]): Promise<void> {
    await provisionStreams(this.jsm, this, this.options, streams, consumers);
  }

  /** Publishes to a stream; JetStream drops a second message with the same msgId inside the window. */
  async publish(relativeSubject: string, payload: unknown, opts: { msgId?: string } = {}): Promise<{ seq: number; duplicate: boolean }> {
    const h = outboundHeaders();
    const msgId = opts.msgId ?? randomUUID();
    const ack = await this.js.publish(this.subject(relativeSubject), JSON.stringify(payload), { msgID: msgId, headers: h });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /** Core NATS request/reply (not persisted): for queries between services. */
  async request<T>(relativeSubject: string, payload: unknown, schema: z.ZodType<T>, timeoutMs = 5000): Promise<T> {
    const reply = await this.nc.request(this.subject(relativeSubject), JSON.stringify(payload), {
      timeout: timeoutMs,
      headers: outboundHeaders(),
    });
    const answer = reply.json<{ ok: boolean; result?: unknown; error?: string }>();
    if (!answer.ok) throw new RemoteError(relativeSubject, answer.error ?? 'unknown error');
    return schema.parse(answer.result);
  }

  /**
   * Every process gets every message on a subject (no queue group, not persisted): for signals
   * like "cancel job X" that only the process running X acts on. Messages published to a stream
   * reach these subscribers too. The handler gets the relative subject and the parsed payload;
   * payloads that do not match the schema are logged and dropped.
   */
  subscribe<T>(relativeSubject: string, schema: z.ZodType<T>, handler: (subject: string, data: T) => void): void {
    const sub = this.nc.subscribe(this.subject(relativeSubject));
    this.subscriptions.push(sub);
    const prefix = this.options.namespace.length + 1;
    void (async () => {
      for await (const m of sub) {
        try {
          handler(m.subject.slice(prefix), schema.parse(m.json()));
        } catch (err) {
          this.options.logger.warn({ err, subject: m.subject }, 'broadcast handler failed');
        }
      }
    })();
  }

  /** Answers requests on a subject, in a queue group so replicas share the load. */
  serve<Req>(relativeSubject: string, schema: z.ZodType<Req>, handler: (req: Req) => Promise<unknown>): void {
    const sub = this.nc.subscribe(this.subject(relativeSubject), { queue: `${this.options.namespace}.${relativeSubject}` });
    this.subscriptions.push(sub);
    void (async () => {
      for await (const m of sub) {
        const carrier = carrierOf(m.headers);
        const correlationId = correlationIdFrom(m.headers?.get(Headers.correlationId));
        void runWithContext({ correlationId, endpoint: relativeSubject }, () =>
          withSpanFromCarrier(`serve ${relativeSubject}`, carrier, { 'messaging.destination': m.subject }, async () => {
            try {
              const result = await handler(schema.parse(m.json()));
              m.respond(JSON.stringify({ ok: true, result }));
            } catch (err) {
              this.options.logger.warn({ err, subject: m.subject }, 'request handler failed');
              m.respond(JSON.stringify({ ok: false, error: (err as Error).message }));
            }
          }),
        );
      }
    })();
  }

  /**
   * Runs a pull consumer until close(). Success => ack. PermanentError or a payload that does
   * not match the schema => dead letter now. Any other error => nak with backoff, and after the
   * consumer's MaxDeliver attempts => dead letter. While a handler runs, the message is kept
   * in progress (`working`) so a slow but live worker is not redelivered.
   */
  async consume<T>(o: ConsumeOptions<T>): Promise<void> {
    const stream = this.streamName(o.consumer.stream);
    const consumer = await this.js.consumers.get(stream, o.consumer.durable);
    const concurrency = o.concurrency ?? 1;
    const messages = await consumer.consume({ max_messages: concurrency });
    this.running.add(messages);
    const slots = new Set<Promise<void>>();
    void (async () => {
      for await (const m of messages) {
        const p = handleDelivery(this.bus, m, o).finally(() => {
          slots.delete(p);
          this.inflight.delete(p);
        });
        slots.add(p);
        this.inflight.add(p);
        if (slots.size >= concurrency) await Promise.race(slots);
      }
    })().catch((err) => {
      if (!this.closed) this.options.logger.error({ err, consumer: o.consumer.durable }, 'consumer loop stopped');
    });
  }

  /**
   * A worker that dies on its last attempt cannot dead-letter its message itself. JetStream
   * then announces MAX_DELIVERIES; this watcher copies that message to the dead-letter stream.
   */
  watchMaxDeliveries(consumer: ConsumerDef): void {
    const stream = this.streamName(consumer.stream);
    const sub = this.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer.durable}`, {
      queue: `${this.options.namespace}.maxdeliveries.${consumer.durable}`,
    });
    this.subscriptions.push(sub);
    void (async () => {
      for await (const adv of sub) {
        try {
          const a = adv.json<{ stream_seq: number; deliveries: number }>();
          const stored = await this.jsm.streams.getMessage(stream, { seq: a.stream_seq });
          if (!stored) continue;
          await deadLetter(
            this.bus,
            { subject: stored.subject, data: stored.data, headers: stored.header },
            stream,
            consumer.durable,
            'no acknowledgement after the last delivery (worker crashed or timed out)',
            a.deliveries,
            a.stream_seq,
          );
          this.options.metrics?.deadLettered.inc({ consumer: consumer.durable });
        } catch (err) {
          this.options.logger.error({ err }, 'could not dead-letter a message after max deliveries');
        }
      }
    })();
  }

  /** The newest message stored on a subject, or null: reads a stream like a key-value table. */
  async lastOnSubject(relativeStream: string, relativeSubject: string): Promise<unknown | null> {
    try {
      const m = await this.jsm.streams.getMessage(this.streamName(relativeStream), { last_by_subj: this.subject(relativeSubject) });
      return m ? safeJson(m.data) : null;
    } catch (err) {
      if (isNotFound(err) || /no message found/i.test((err as Error).message)) return null;
      throw err;
    }
  }

  /** Reads dead letters (newest last), for operators and tests. */
  async readDeadLetters(limit = 100): Promise<DeadLetter[]> {
    return readDeadLetters(this.jsm, this, limit);
  }

  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('NATS connection is closed');
    await this.jsm.getAccountInfo();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const m of this.running) await m.close().catch(() => undefined);
    await Promise.allSettled([...this.inflight]);
    for (const s of this.subscriptions) s.unsubscribe();
    await this.nc.drain().catch(() => undefined);
  }
}
