/**
 * Over 400 lines: the one JetStream adapter (connect, provision, publish, request/reply, durable
 * consumers with heartbeats, backoff and dead letters) keeps its delivery rules in one place.
 */
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { connect, type NodeConnectionOptions } from '@nats-io/transport-node';
import { backoffMs, Headers, Streams, Subjects, type ConsumerSpec } from '@wordcut/contracts';
import {
  correlationIdFrom,
  currentCorrelationId,
  injectTraceContext,
  runWithContext,
  withSpanFromCarrier,
  type Logger,
  type ServiceMetrics,
} from '@wordcut/platform';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { PermanentError, RemoteError, RetryLaterError } from './errors';

export interface StreamDef {
  /** relative name, e.g. 'JOBS' */
  name: string;
  /** relative subjects, e.g. ['jobs.>'] */
  subjects: readonly string[];
  maxAgeMs?: number;
}

/** A durable pull consumer as the consumer table describes it (libs/contracts consumers.ts), whoever owns it. */
export type ConsumerDef = Omit<ConsumerSpec, 'service'>;

export interface InboundMessage<T> {
  data: T;
  subject: string;
  deliveryCount: number;
  streamSequence: number;
  msgId: string | undefined;
  /** tells JetStream the handler is still working, postponing redelivery */
  working(): void;
}

export interface ConsumeOptions<T> {
  consumer: ConsumerDef;
  schema: z.ZodType<T>;
  handler: (msg: InboundMessage<T>) => Promise<void>;
  /** messages handled at once by this process */
  concurrency?: number;
}

export interface MessagingOptions {
  servers: string;
  namespace: string;
  name: string;
  /**
   * Credentials (a service passes its NATS_USER, NATS_PASSWORD, NATS_TOKEN): a user with its
   * password, or a token, or none. Empty strings count as unset.
   */
  user?: string | undefined;
  pass?: string | undefined;
  token?: string | undefined;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** how long JetStream remembers a Nats-Msg-Id to drop duplicates */
  duplicateWindowMs?: number;
  /** copies of each stream the services provision (3 on a three-node JetStream cluster); default 1 */
  streamReplicas?: number;
}

/**
 * The NATS connection options of a Messaging: its servers, its name, reconnecting for ever, and its
 * credentials (user + password, or token). Throws on half a user/password pair or on both kinds,
 * so a misconfigured service stops at start rather than connecting anonymously.
 */
export function natsConnectOptions(o: Pick<MessagingOptions, 'servers' | 'name' | 'user' | 'pass' | 'token'>): NodeConnectionOptions {
  const user = o.user || undefined;
  const pass = o.pass || undefined;
  const token = o.token || undefined;
  if (Boolean(user) !== Boolean(pass)) throw new Error('NATS credentials: set both NATS_USER and NATS_PASSWORD, or neither');
  if (token && user) throw new Error('NATS credentials: set NATS_USER/NATS_PASSWORD or NATS_TOKEN, not both');
  return {
    servers: o.servers.split(','),
    name: o.name,
    maxReconnectAttempts: -1,
    ...(user && pass ? { user, pass } : {}),
    ...(token ? { token } : {}),
  };
}

export interface DeadLetter {
  subject: string;
  originalSubject: string;
  error: string;
  deliveryCount: number;
  data: unknown;
}

const DLQ_MAX_AGE_MS = 14 * 24 * 3600 * 1000;

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

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly options: MessagingOptions,
  ) {}

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
    const all = [...streams, { ...Streams.deadLetter, maxAgeMs: DLQ_MAX_AGE_MS }];
    const seen = new Set<string>();
    for (const s of all) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      const config = {
        name: this.streamName(s.name),
        subjects: s.subjects.map((x) => this.subject(x)),
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: nanos(this.options.duplicateWindowMs ?? 120_000),
        max_age: nanos(s.maxAgeMs ?? 7 * 24 * 3600 * 1000),
        num_replicas: this.options.streamReplicas ?? 1,
      };
      try {
        await this.jsm.streams.info(config.name);
        await this.jsm.streams.update(config.name, config);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.jsm.streams.add(config);
      }
    }
    for (const c of consumers) {
      const stream = this.streamName(c.stream);
      const config = {
        durable_name: c.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: this.subject(c.filterSubject),
        ack_wait: nanos(c.ackWaitMs),
        max_deliver: c.maxDeliver,
        max_ack_pending: c.maxAckPending ?? 1000,
      };
      try {
        const existing = await this.jsm.consumers.info(stream, c.durable);
        if (existing.config.filter_subject !== config.filter_subject) {
          // NATS 2.9 accepts a filter change but then delivers nothing more: recreate the durable,
          // resuming after the last message it acknowledged, so nothing is lost or replayed.
          await this.jsm.consumers.delete(stream, c.durable);
          await this.jsm.consumers.add(stream, {
            ...config,
            deliver_policy: DeliverPolicy.StartSequence,
            opt_start_seq: existing.ack_floor.stream_seq + 1,
          });
          this.options.logger.warn({ stream, consumer: c.durable, from: existing.config.filter_subject, to: config.filter_subject }, 'consumer filter changed: recreated');
          continue;
        }
        await this.jsm.consumers.update(stream, c.durable, {
          filter_subject: config.filter_subject,
          ack_wait: config.ack_wait,
          max_deliver: config.max_deliver,
          max_ack_pending: config.max_ack_pending,
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.jsm.consumers.add(stream, config);
      }
    }
  }

  /** Publishes to a stream; JetStream drops a second message with the same msgId inside the window. */
  async publish(relativeSubject: string, payload: unknown, opts: { msgId?: string } = {}): Promise<{ seq: number; duplicate: boolean }> {
    const h = this.outboundHeaders();
    const msgId = opts.msgId ?? randomUUID();
    const ack = await this.js.publish(this.subject(relativeSubject), JSON.stringify(payload), { msgID: msgId, headers: h });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /** Core NATS request/reply (not persisted): for queries between services. */
  async request<T>(relativeSubject: string, payload: unknown, schema: z.ZodType<T>, timeoutMs = 5000): Promise<T> {
    const reply = await this.nc.request(this.subject(relativeSubject), JSON.stringify(payload), {
      timeout: timeoutMs,
      headers: this.outboundHeaders(),
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
        const p = this.handle(m, o).finally(() => {
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

  private async handle<T>(m: JsMsg, o: ConsumeOptions<T>): Promise<void> {
    const consumerName = o.consumer.durable;
    const carrier = carrierOf(m.headers);
    const correlationId = correlationIdFrom(m.headers?.get(Headers.correlationId));
    const started = process.hrtime.bigint();
    const deliveryCount = m.info.deliveryCount;
    const relSubject = m.subject.slice(this.options.namespace.length + 1);
    const log = this.options.logger;
    await runWithContext({ correlationId, endpoint: relSubject }, () =>
      withSpanFromCarrier(
        `process ${relSubject}`,
        carrier,
        { 'messaging.destination': m.subject, 'messaging.consumer': consumerName, 'messaging.delivery_count': deliveryCount },
        async () => {
          const heartbeat = setInterval(() => m.working(), Math.max(500, Math.floor(o.consumer.ackWaitMs / 3)));
          let outcome: 'ack' | 'nak' | 'dead_letter' = 'ack';
          try {
            let data: T;
            try {
              data = o.schema.parse(m.json());
            } catch (err) {
              throw new PermanentError(`invalid message payload: ${(err as Error).message}`, 'INVALID_PAYLOAD');
            }
            log.debug({ subject: m.subject, deliveryCount }, 'message received');
            await o.handler({
              data,
              subject: relSubject,
              deliveryCount,
              streamSequence: m.info.streamSequence,
              msgId: m.headers?.get(Headers.msgId) || undefined,
              working: () => m.working(),
            });
            await m.ackAck();
          } catch (err) {
            const error = err as Error;
            const exhausted = deliveryCount >= o.consumer.maxDeliver;
            if (error instanceof PermanentError || exhausted) {
              outcome = 'dead_letter';
              log.error({ err: error, subject: m.subject, deliveryCount }, 'message dead-lettered');
              await this.deadLetter(m, stream(m), consumerName, error.message, deliveryCount);
              m.term(error.message.slice(0, 200));
              this.options.metrics?.deadLettered.inc({ consumer: consumerName });
            } else {
              outcome = 'nak';
              const delay = error instanceof RetryLaterError ? error.delayMs : backoffMs(o.consumer.backoff, deliveryCount, Math.random);
              log.warn({ err: error, subject: m.subject, deliveryCount, retryInMs: delay }, 'handler failed, will retry');
              m.nak(delay);
            }
          } finally {
            clearInterval(heartbeat);
            this.options.metrics?.messagesHandled.inc({ consumer: consumerName, outcome });
            this.options.metrics?.messageDuration.observe({ consumer: consumerName }, Number(process.hrtime.bigint() - started) / 1e9);
          }
        },
      ),
    );

    function stream(msg: JsMsg): string {
      return msg.info.stream;
    }
  }

  /** Copies a message to `<ns>.dlq.<original subject>` keeping subject, error and delivery count. */
  private async deadLetter(m: Pick<JsMsg, 'subject' | 'data' | 'headers'>, stream: string, consumer: string, error: string, deliveryCount: number, seq?: number): Promise<void> {
    const h = natsHeaders();
    if (m.headers) for (const [k, v] of m.headers) if (k !== Headers.msgId) for (const one of v) h.append(k, one);
    h.set(Headers.dlqOriginalSubject, m.subject);
    h.set(Headers.dlqError, error.replace(/[\r\n]+/g, ' ').slice(0, 1000));
    h.set(Headers.dlqDeliveryCount, String(deliveryCount));
    h.set(Headers.dlqStream, stream);
    h.set(Headers.dlqConsumer, consumer);
    const originalSubject = m.subject.slice(this.options.namespace.length + 1);
    const id = `dlq:${stream}:${seq ?? (m as JsMsg).info?.streamSequence ?? randomUUID()}`;
    await this.js.publish(this.subject(`${Subjects.deadLetterPrefix}.${originalSubject}`), m.data, { msgID: id, headers: h });
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
          await this.deadLetter(
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
    const name = this.streamName(Streams.deadLetter.name);
    const info = await this.jsm.streams.info(name);
    const out: DeadLetter[] = [];
    const first = Math.max(info.state.first_seq, info.state.last_seq - limit + 1);
    for (let seq = first; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await this.jsm.streams.getMessage(name, { seq }).catch(() => null);
      if (!m) continue;
      out.push({
        subject: m.subject,
        originalSubject: m.header.get(Headers.dlqOriginalSubject),
        error: m.header.get(Headers.dlqError),
        deliveryCount: Number(m.header.get(Headers.dlqDeliveryCount)),
        data: safeJson(m.data),
      });
    }
    return out;
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

  private outboundHeaders(): MsgHdrs {
    const h = natsHeaders();
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier);
    for (const [k, v] of Object.entries(carrier)) h.set(k, v);
    const correlationId = currentCorrelationId();
    if (correlationId) h.set(Headers.correlationId, correlationId);
    return h;
  }
}

function carrierOf(h: MsgHdrs | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (!h) return carrier;
  const tp = h.get(Headers.traceparent);
  const ts = h.get(Headers.tracestate);
  if (tp) carrier[Headers.traceparent] = tp;
  if (ts) carrier[Headers.tracestate] = ts;
  return carrier;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: number; api_error?: { code?: number } };
  return e?.name === 'StreamNotFoundError' || e?.name === 'ConsumerNotFoundError' || e?.api_error?.code === 404 || /not found/i.test(e?.message ?? '');
}

function safeJson(data: Uint8Array): unknown {
  const text = new TextDecoder().decode(data);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
