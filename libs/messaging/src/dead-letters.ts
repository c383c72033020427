/**
 * Dead letters: a message copied to `<ns>.dlq.<original subject>` with its subject, error and
 * delivery count, and reading them back.
 */
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { Headers, Streams, Subjects } from '@wordcut/contracts';
import { randomUUID } from 'node:crypto';
import type { MessagingOptions } from './connection';
import type { Namespaced } from './provision';
import { safeJson } from './wire';

export interface DeadLetter {
  subject: string;
  originalSubject: string;
  error: string;
  deliveryCount: number;
  data: unknown;
}

/** What dead-lettering and handling a delivery need of the adapter. */
export interface DeliveryBus {
  readonly js: JetStreamClient;
  readonly options: Pick<MessagingOptions, 'namespace' | 'logger' | 'metrics'>;
  subject(relative: string): string;
}

/** Copies a message to `<ns>.dlq.<original subject>` keeping subject, error and delivery count. */
export async function deadLetter(bus: DeliveryBus, m: Pick<JsMsg, 'subject' | 'data' | 'headers'>, stream: string, consumer: string, error: string, deliveryCount: number, seq?: number): Promise<void> {
  const h = natsHeaders();
  if (m.headers) for (const [k, v] of m.headers) if (k !== Headers.msgId) for (const one of v) h.append(k, one);
  h.set(Headers.dlqOriginalSubject, m.subject);
  h.set(Headers.dlqError, error.replace(/[\r\n]+/g, ' ').slice(0, 1000));
  h.set(Headers.dlqDeliveryCount, String(deliveryCount));
  h.set(Headers.dlqStream, stream);
  h.set(Headers.dlqConsumer, consumer);
  const originalSubject = m.subject.slice(bus.options.namespace.length + 1);
  const id = `dlq:${stream}:${seq ?? (m as JsMsg).info?.streamSequence ?? randomUUID()}`;
  await bus.js.publish(bus.subject(`${Subjects.deadLetterPrefix}.${originalSubject}`), m.data, { msgID: id, headers: h });
}

/** Reads dead letters (newest last), for operators and tests. */
export async function readDeadLetters(jsm: JetStreamManager, ns: Namespaced, limit: number): Promise<DeadLetter[]> {
  const name = ns.streamName(Streams.deadLetter.name);
  const info = await jsm.streams.info(name);
  const out: DeadLetter[] = [];
  const first = Math.max(info.state.first_seq, info.state.last_seq - limit + 1);
  for (let seq = first; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(name, { seq }).catch(() => null);
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
