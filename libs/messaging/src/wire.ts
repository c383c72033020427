/**
 * What the adapter reads and writes on the wire: the trace context and correlation id headers
 * every message carries, JSON bodies, and JetStream's not-found errors.
 */
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import { Headers } from '@wordcut/contracts';
import { currentCorrelationId, injectTraceContext } from '@wordcut/platform';

/** Headers of an outgoing message: the current trace context and correlation id. */
export function outboundHeaders(): MsgHdrs {
  const h = natsHeaders();
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  for (const [k, v] of Object.entries(carrier)) h.set(k, v);
  const correlationId = currentCorrelationId();
  if (correlationId) h.set(Headers.correlationId, correlationId);
  return h;
}

/** The W3C trace context of an incoming message's headers. */
export function carrierOf(h: MsgHdrs | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (!h) return carrier;
  const tp = h.get(Headers.traceparent);
  const ts = h.get(Headers.tracestate);
  if (tp) carrier[Headers.traceparent] = tp;
  if (ts) carrier[Headers.tracestate] = ts;
  return carrier;
}

/** True when a JetStream API error means the stream or consumer does not exist. */
export function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: number; api_error?: { code?: number } };
  return e?.name === 'StreamNotFoundError' || e?.name === 'ConsumerNotFoundError' || e?.api_error?.code === 404 || /not found/i.test(e?.message ?? '');
}

/** A stored body as JSON, or as its text when it is not JSON. */
export function safeJson(data: Uint8Array): unknown {
  const text = new TextDecoder().decode(data);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
