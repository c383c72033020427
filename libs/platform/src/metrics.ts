import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The prom-client registry of one service, with the metrics every service records. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly messagesHandled: Counter<'consumer' | 'outcome'>;
  readonly messageDuration: Histogram<'consumer'>;
  readonly deadLettered: Counter<'consumer'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'wordcut_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.messagesHandled = new Counter({
      name: 'wordcut_messages_handled_total',
      help: 'JetStream messages handled, by consumer and outcome (ack, nak, term, dead_letter)',
      labelNames: ['consumer', 'outcome'],
      registers: [this.registry],
    });
    this.messageDuration = new Histogram({
      name: 'wordcut_message_handling_seconds',
      help: 'Time spent in a message handler',
      labelNames: ['consumer'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers: [this.registry],
    });
    this.deadLettered = new Counter({
      name: 'wordcut_dead_letters_total',
      help: 'Messages moved to the dead-letter stream',
      labelNames: ['consumer'],
      registers: [this.registry],
    });
  }
}
