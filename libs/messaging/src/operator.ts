import { Streams, Subjects } from '@wordcut/contracts';
import type { ErrorLogRelay } from '@wordcut/platform';
import type { Messaging } from './messaging';

/** The LOGS stream as every service provisions it: entries wait there up to 7 days for the analytics service. */
export const LOGS_STREAM = { ...Streams.logs, maxAgeMs: 7 * 24 * 3600 * 1000 };

/**
 * Sends the service's reported log entries to `logs.errors.<service>` (stream LOGS, 7 days), where
 * the analytics service keeps them for the operators' error log.
 */
export async function relayErrorLogs(bus: Messaging, relay: ErrorLogRelay, service: string): Promise<void> {
  await bus.provision([LOGS_STREAM], []);
  relay.attach((entry) => bus.publish(`${Subjects.errorLog}.${service}`, entry, { msgId: entry.id }));
}

/** A durable consumer's queue figures: delivered and unacknowledged, stored and undelivered, redelivered. */
export interface ConsumerFigures {
  name: string;
  ackPending: number;
  pending: number;
  redelivered: number;
}

/** The consumer's figures, or null when it does not exist (yet). */
export async function consumerFigures(bus: Messaging, stream: string, durable: string): Promise<ConsumerFigures | null> {
  try {
    const info = await bus.jsm.consumers.info(bus.streamName(stream), durable);
    return { name: durable, ackPending: info.num_ack_pending, pending: info.num_pending, redelivered: info.num_redelivered };
  } catch (err) {
    if (/not found/i.test((err as Error).message)) return null;
    throw err;
  }
}

/** How many stored messages of a stream match each relative subject filter (e.g. dead letters of `dlq.media.>`). */
export async function storedCount(bus: Messaging, stream: string, relativeFilter: string): Promise<number> {
  try {
    const info = await bus.jsm.streams.info(bus.streamName(stream), { subjects_filter: bus.subject(relativeFilter) });
    const subjects = info.state.subjects ?? {};
    return Object.values(subjects).reduce((sum, n) => sum + n, 0);
  } catch (err) {
    if (/not found/i.test((err as Error).message)) return 0;
    throw err;
  }
}
