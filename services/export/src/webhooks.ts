import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ExportSubjects, providerWebhookEventSchema, type ProviderWebhookEvent, Consumers, withDelivery } from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '@wordcut/provider';
import type { Request, Response } from 'express';
import { detailsOf } from './errors';
import type { ExportStore } from './export-store';
import { announceItem } from './item-events';
import type { ExportMetrics } from './metrics';

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface WebhookReceiverOptions {
  secret: string;
  /** signature timestamps further than this from now are refused (default: the library's 5 min) */
  toleranceSec?: number;
}

/**
 * `POST /webhooks/provider`: verify the signature over the raw bytes, parse, remember the event id
 * (a replay is answered 200 duplicate and not applied again), then queue it on JetStream for the
 * applier and answer 202 at once, so the provider never waits on our database work.
 */
export class WebhookReceiver {
  constructor(
    private readonly bus: Messaging,
    private readonly store: ExportStore,
    private readonly logger: Logger,
    private readonly metrics: ExportMetrics | null,
    private readonly options: WebhookReceiverOptions,
  ) {}

  async receive(rawBody: Buffer | undefined, signatureHeader: string | undefined): Promise<WebhookAnswer> {
    const verified = verifyWebhookSignature({ secret: this.options.secret, rawBody: rawBody ?? Buffer.alloc(0), header: signatureHeader, toleranceSec: this.options.toleranceSec });
    if (!verified.ok) {
      this.metrics?.webhooks.inc({ result: 'invalid_signature' });
      this.logger.warn({ reason: verified.reason }, 'provider webhook refused: invalid signature');
      return { status: 401, body: { error: 'invalid_signature', reason: verified.reason } };
    }
    let event: ProviderWebhookEvent;
    try {
      event = providerWebhookEventSchema.parse(JSON.parse(rawBody!.toString('utf8')));
    } catch (err) {
      this.metrics?.webhooks.inc({ result: 'invalid_payload' });
      return { status: 400, body: { error: 'invalid_payload', message: `The webhook body is not a provider event: ${detailsOf(err)}` } };
    }
    if (!(await this.store.webhookEvents.recordWebhook(event, maskSignature(signatureHeader)))) {
      this.metrics?.webhooks.inc({ result: 'duplicate' });
      this.logger.info({ eventId: event.id, type: event.type }, 'provider webhook replayed: ignored');
      return { status: 200, body: { received: true, duplicate: true } };
    }
    try {
      await this.bus.publish(ExportSubjects.webhook, event, { msgId: event.id });
    } catch (err) {
      // not queued: forget it, so the provider's redelivery of this event is taken as new
      await this.store.webhookEvents.forgetWebhook(event.id).catch(() => undefined);
      this.metrics?.webhooks.inc({ result: 'unavailable' });
      this.logger.error({ err, eventId: event.id }, 'could not queue a provider webhook');
      return { status: 503, body: { error: 'unavailable', message: 'The webhook could not be queued. Please deliver it again.' } };
    }
    this.metrics?.webhooks.inc({ result: 'accepted' });
    this.logger.info({ eventId: event.id, type: event.type, uploadId: event.data.uploadId }, 'provider webhook accepted');
    return { status: 202, body: { received: true } };
  }
}

/** A signature header shown to operators: its timestamp and the first and last 4 characters of each digest. */
export function maskSignature(header: string | undefined): string | null {
  if (!header) return null;
  return header
    .split(',')
    .map((part) => {
      const [k, v = ''] = part.split('=', 2);
      return k === 't' || v.length <= 8 ? part.trim() : `${k!.trim()}=${v.slice(0, 4)}…${v.slice(-4)}`;
    })
    .join(',');
}

export const WEBHOOK_RECEIVER = Symbol('WEBHOOK_RECEIVER');

/** Needs `rawBody: true` on the Nest app (runService's option): the HMAC covers the exact bytes. */
@Controller('webhooks')
export class WebhooksController {
  constructor(@Inject(WEBHOOK_RECEIVER) private readonly receiver: WebhookReceiver) {}

  @Post('provider')
  async provider(@Req() req: Request & { rawBody?: Buffer }, @Res() res: Response): Promise<void> {
    const header = req.header(WEBHOOK_SIGNATURE_HEADER);
    const answer = await this.receiver.receive(req.rawBody, header);
    res.status(answer.status).json(answer.body);
  }
}

export interface WebhookApplierOptions {
  consumer?: Partial<Pick<ConsumerDef, 'ackWaitMs' | 'maxDeliver'>>;
  /** ceiling of the first redelivery wait after a failed apply (default Retry.providerWebhook) */
  retryBaseMs?: number;
}

export const webhookConsumer = (o: WebhookApplierOptions['consumer'] & { retryBaseMs?: number } = {}): ConsumerDef => withDelivery(Consumers.exportWebhooks, o);

/**
 * Applies queued webhook events to export items (by upload id). An event may arrive before the
 * worker has committed the upload id it names, so a miss is an error and JetStream delivers the
 * event again (with backoff); after the last delivery it is recorded in failed_webhooks (the
 * analytics dashboard lists and retries them) and acknowledged.
 */
export class WebhookApplier {
  readonly consumer: ConsumerDef;

  constructor(
    private readonly bus: Messaging,
    private readonly store: ExportStore,
    private readonly logger: Logger,
    private readonly options: WebhookApplierOptions = {},
  ) {
    this.consumer = webhookConsumer({ ...options.consumer, ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}) });
  }

  async start(): Promise<void> {
    await this.bus.consume({
      consumer: this.consumer,
      schema: providerWebhookEventSchema,
      handler: (m) => this.handle(m),
    });
  }

  async handle(m: InboundMessage<ProviderWebhookEvent>): Promise<void> {
    const e = m.data;
    try {
      await this.apply(e);
    } catch (err) {
      const error = detailsOf(err);
      if (m.deliveryCount >= this.consumer.maxDeliver) {
        await this.store.recordFailedWebhook(e, error, m.deliveryCount);
        this.logger.error({ eventId: e.id, type: e.type, attempts: m.deliveryCount, error }, 'provider webhook failed for good: recorded in failed_webhooks');
        return;
      }
      await this.store.webhookEvents.webhookAttemptFailed(e.id, error).catch(() => undefined);
      throw err;
    }
  }

  /**
   * One event's effect: confirmed (upload.completed, video.ready) or failed (upload.failed), only
   * if it is the newest event of its items; an older one is skipped (answered `skipped`, not an
   * error). A failed item is announced, so the gateway's upload status follows even after the job
   * completed; a failed announcement is delivered again (applying twice is harmless and
   * JetStream drops the repeated announcement by its msgId).
   */
  async apply(e: ProviderWebhookEvent): Promise<'applied' | 'skipped'> {
    const { outcome, items } = await this.store.applyWebhook(e);
    if (outcome === 'none') throw new Error(`no export item has upload id ${e.data.uploadId}`);
    if (outcome === 'skipped') {
      this.logger.warn({ eventId: e.id, type: e.type, uploadId: e.data.uploadId, createdAt: e.createdAt }, 'provider webhook skipped: a newer event of its upload was applied');
      return outcome;
    }
    if (e.type === 'upload.failed') {
      for (const { item, videoId } of items) await announceItem(this.bus, videoId, item, 'failed', null);
    }
    this.logger.info({ eventId: e.id, type: e.type, uploadId: e.data.uploadId, items: items.length }, 'provider webhook applied');
    return outcome;
  }
}
