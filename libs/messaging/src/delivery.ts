/**
 * One delivery of a durable consumer, handled: success acks; a PermanentError or a payload that
 * fails its schema dead-letters now; any other error naks with backoff until MaxDeliver, then
 * dead-letters. A heartbeat keeps the message in progress while the handler runs.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { backoffMs, Headers } from '@wordcut/contracts';
import { correlationIdFrom, runWithContext, withSpanFromCarrier } from '@wordcut/platform';
import type { z } from 'zod';
import { deadLetter, type DeliveryBus } from './dead-letters';
import { PermanentError, RetryLaterError } from './errors';
import type { ConsumerDef } from './provision';
import { carrierOf } from './wire';

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

/** Runs the handler on one delivery inside its correlation id and trace span, and settles the message. */
export async function handleDelivery<T>(bus: DeliveryBus, m: JsMsg, o: ConsumeOptions<T>): Promise<void> {
  const consumerName = o.consumer.durable;
  const carrier = carrierOf(m.headers);
  const correlationId = correlationIdFrom(m.headers?.get(Headers.correlationId));
  const started = process.hrtime.bigint();
  const deliveryCount = m.info.deliveryCount;
  const relSubject = m.subject.slice(bus.options.namespace.length + 1);
  const log = bus.options.logger;
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
            await deadLetter(bus, m, m.info.stream, consumerName, error.message, deliveryCount);
            m.term(error.message.slice(0, 200));
            bus.options.metrics?.deadLettered.inc({ consumer: consumerName });
          } else {
            outcome = 'nak';
            const delay = error instanceof RetryLaterError ? error.delayMs : backoffMs(o.consumer.backoff, deliveryCount, Math.random);
            log.warn({ err: error, subject: m.subject, deliveryCount, retryInMs: delay }, 'handler failed, will retry');
            m.nak(delay);
          }
        } finally {
          clearInterval(heartbeat);
          bus.options.metrics?.messagesHandled.inc({ consumer: consumerName, outcome });
          bus.options.metrics?.messageDuration.observe({ consumer: consumerName }, Number(process.hrtime.bigint() - started) / 1e9);
        }
      },
    ),
  );
}
