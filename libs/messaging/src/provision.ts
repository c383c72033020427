/**
 * Provisioning: the streams and durable pull consumers a service declares, created or brought up
 * to date (the dead-letter stream always).
 */
import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { Streams, type ConsumerSpec } from '@wordcut/contracts';
import type { MessagingOptions } from './connection';
import { isNotFound } from './wire';

export interface StreamDef {
  /** relative name, e.g. 'JOBS' */
  name: string;
  /** relative subjects, e.g. ['jobs.>'] */
  subjects: readonly string[];
  maxAgeMs?: number;
}

/** A durable pull consumer as the consumer table describes it (libs/contracts consumers.ts), whoever owns it. */
export type ConsumerDef = Omit<ConsumerSpec, 'service'>;

/** Relative subjects and stream names made absolute in a namespace. */
export interface Namespaced {
  subject(relative: string): string;
  streamName(relative: string): string;
}

const DLQ_MAX_AGE_MS = 14 * 24 * 3600 * 1000;

/** Creates or updates streams (the dead-letter stream always) and durable pull consumers. */
export async function provisionStreams(
  jsm: JetStreamManager,
  ns: Namespaced,
  options: Pick<MessagingOptions, 'duplicateWindowMs' | 'streamReplicas' | 'logger'>,
  streams: readonly StreamDef[],
  consumers: readonly ConsumerDef[],
): Promise<void> {
  const all = [...streams, { ...Streams.deadLetter, maxAgeMs: DLQ_MAX_AGE_MS }];
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.name)) continue;
    seen.add(s.name);
    const config = {
      name: ns.streamName(s.name),
      subjects: s.subjects.map((x) => ns.subject(x)),
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
      max_age: nanos(s.maxAgeMs ?? 7 * 24 * 3600 * 1000),
      num_replicas: options.streamReplicas ?? 1,
    };
    try {
      await jsm.streams.info(config.name);
      await jsm.streams.update(config.name, config);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await jsm.streams.add(config);
    }
  }
  for (const c of consumers) {
    const stream = ns.streamName(c.stream);
    const config = {
      durable_name: c.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: ns.subject(c.filterSubject),
      ack_wait: nanos(c.ackWaitMs),
      max_deliver: c.maxDeliver,
      max_ack_pending: c.maxAckPending ?? 1000,
    };
    try {
      const existing = await jsm.consumers.info(stream, c.durable);
      if (existing.config.filter_subject !== config.filter_subject) {
        // NATS 2.9 accepts a filter change but then delivers nothing more: recreate the durable,
        // resuming after the last message it acknowledged, so nothing is lost or replayed.
        await jsm.consumers.delete(stream, c.durable);
        await jsm.consumers.add(stream, {
          ...config,
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: existing.ack_floor.stream_seq + 1,
        });
        options.logger.warn({ stream, consumer: c.durable, from: existing.config.filter_subject, to: config.filter_subject }, 'consumer filter changed: recreated');
        continue;
      }
      await jsm.consumers.update(stream, c.durable, {
        filter_subject: config.filter_subject,
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        max_ack_pending: config.max_ack_pending,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await jsm.consumers.add(stream, config);
    }
  }
}
