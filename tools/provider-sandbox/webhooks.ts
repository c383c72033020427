/**
 * The sandbox provider's webhooks: signed JSON events (`providerWebhookEventSchema`) POSTed to the
 * configured URL, header `Provider-Signature: t=<unix>,v1=<hmac>`; a non-2xx answer or an error is
 * retried (default after 0.2, 0.4 and 0.8 s), each try re-signed with a fresh timestamp, as real
 * providers do. Every try is logged; any event can be sent again with the same id (a replay).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProviderWebhookEvent } from '@wordcut/contracts';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../libs/provider/src/webhook';

/** The webhook secret of local development (override with webhookSecret / PROVIDER_SANDBOX_WEBHOOK_SECRET). */
export const DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox_local_dev_secret_0123456789';

export interface WebhookDelivery {
  eventId: string;
  type: ProviderWebhookEvent['type'];
  /** 1 for the first try */
  attempt: number;
  url: string;
  /** ISO time of the try */
  at: string;
  /** the signed timestamp */
  timestamp: number;
  signature: string;
  status: number | null;
  error: string | null;
  ok: boolean;
}

export interface WebhookSendResult {
  eventId: string;
  delivered: boolean;
  attempts: WebhookDelivery[];
}

export interface WebhookSendOptions {
  /** sign with this secret instead of the configured one (several: one v1 entry each) */
  signWith?: string | string[];
  /** sign with this unix time instead of now */
  timestamp?: number;
  /** retry as automatic deliveries do; default false for one-off sends */
  retry?: boolean;
}

export class WebhookSender {
  private events = new Map<string, ProviderWebhookEvent>();
  private deliveries: WebhookDelivery[] = [];
  private pending = new Set<Promise<unknown>>();
  private abort = new AbortController();

  constructor(
    private readonly o: { url: string | undefined; secret: string; retryDelaysMs: number[]; timeoutMs: number },
  ) {}

  get url(): string | undefined {
    return this.o.url;
  }

  /** A new event with a unique id, kept for resends. */
  event(type: ProviderWebhookEvent['type'], data: ProviderWebhookEvent['data']): ProviderWebhookEvent {
    const event: ProviderWebhookEvent = { id: `evt_${randomUUID()}`, type, createdAt: new Date().toISOString(), data };
    this.events.set(event.id, event);
    return event;
  }

  /** Delivers events one after the other in the background (pauses between them in ms). */
  deliverInOrder(steps: { event: ProviderWebhookEvent; delayMs?: number }[]): void {
    if (!this.o.url) return;
    const signal = this.abort.signal;
    this.track(
      (async () => {
        for (const step of steps) {
          if (step.delayMs) await sleep(step.delayMs, undefined, { signal });
          await this.send(step.event, { retry: true });
        }
      })(),
    );
  }

  /** One delivery (with retries when asked); resolves when it was answered 2xx or every try failed. */
  async send(event: ProviderWebhookEvent, so: WebhookSendOptions = {}): Promise<WebhookSendResult> {
    const url = this.o.url;
    if (!url) throw new Error('no webhook URL is configured (webhookUrl / PROVIDER_SANDBOX_WEBHOOK_URL)');
    const run = this.sendTo(url, event, so);
    this.track(run);
    return run;
  }

  /** Sends a logged event again: same id and body, new timestamp and signature. */
  resend(eventId: string): Promise<WebhookSendResult> | null {
    const event = this.events.get(eventId);
    return event ? this.send(event, { retry: false }) : null;
  }

  list(): { events: ProviderWebhookEvent[]; deliveries: WebhookDelivery[] } {
    return { events: [...this.events.values()], deliveries: this.deliveries.map((d) => ({ ...d })) };
  }

  /** Resolves when no delivery is under way (tests wait on it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Forgets events and deliveries, stops deliveries under way. */
  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.events.clear();
    this.deliveries = [];
  }

  close(): void {
    this.abort.abort();
  }

  private track(p: Promise<unknown>): void {
    const quiet = p.catch(() => undefined);
    this.pending.add(quiet);
    void quiet.finally(() => this.pending.delete(quiet));
  }

  private async sendTo(url: string, event: ProviderWebhookEvent, so: WebhookSendOptions): Promise<WebhookSendResult> {
    const signal = this.abort.signal;
    const body = JSON.stringify(event);
    const delays = so.retry ? this.o.retryDelaysMs : [];
    const attempts: WebhookDelivery[] = [];
    for (let attempt = 1; ; attempt++) {
      const timestamp = so.timestamp ?? Math.floor(Date.now() / 1000);
      const signature = signWebhook(so.signWith ?? this.o.secret, body, timestamp);
      const d: WebhookDelivery = { eventId: event.id, type: event.type, attempt, url, at: new Date().toISOString(), timestamp, signature, status: null, error: null, ok: false };
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature, 'provider-event-id': event.id, 'user-agent': 'wordcut-provider-sandbox-webhooks' },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(this.o.timeoutMs)]),
        });
        await res.arrayBuffer().catch(() => undefined);
        d.status = res.status;
        d.ok = res.status >= 200 && res.status < 300;
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        d.error = cause?.code ?? cause?.message ?? (e as Error).message;
      }
      this.deliveries.push(d);
      attempts.push(d);
      const delay = delays[attempt - 1];
      if (d.ok || delay === undefined || signal.aborted) return { eventId: event.id, delivered: d.ok, attempts };
      await sleep(delay, undefined, { signal }).catch(() => undefined);
    }
  }
}
