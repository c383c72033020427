import { context, propagation, trace, SpanKind, SpanStatusCode, type Span, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Starts OpenTelemetry tracing for this process. Call it first in main.ts, before the
 * HTTP stack is loaded, so the http instrumentation can patch it. Spans are exported over
 * OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set; trace ids are made (and logged) either way.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): () => Promise<void> {
  if (provider) return () => provider!.shutdown();
  const spanProcessors: SpanProcessor[] = [];
  if (env['OTEL_EXPORTER_OTLP_ENDPOINT']) {
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  }
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env['OTEL_SERVICE_NAME'] ?? serviceName }),
    spanProcessors,
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/metrics',
      }),
    ],
  });
  return () => provider!.shutdown();
}

const tracer = () => trace.getTracer('wordcut');

/** Serialises the active trace context into a carrier (message headers). */
export function injectTraceContext(carrier: Record<string, string>, ctx: Context = context.active()): void {
  propagation.inject(ctx, carrier);
}

/** Runs `fn` inside a span whose parent comes from a carrier (message headers). */
export async function withSpanFromCarrier<T>(
  name: string,
  carrier: Record<string, string>,
  attributes: Record<string, string | number>,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(context.active(), carrier);
  return tracer().startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, (span) => endingSpan(span, fn));
}

/** Runs `fn` in a new producer/internal span under the active context. */
export async function withSpan<T>(name: string, fn: (span: Span) => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> {
  return tracer().startActiveSpan(name, { kind }, (span) => endingSpan(span, fn));
}

/** Runs `fn` in `span`, records its failure on the span, and ends the span either way. */
async function endingSpan<T>(span: Span, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await fn(span);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}
