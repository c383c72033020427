/** The provider sandbox's public types: its options, token signing options and the handle tests drive. */
import type { ProviderTokenClaims, ProviderWebhookEvent } from '@wordcut/contracts';
import type { Fault, FaultSpec, RequestLogEntry } from './faults';
import type { SandboxSigningAlg } from './keys';
import type { LibraryVideo } from './library';
import type { WebhookDelivery, WebhookSendOptions, WebhookSendResult } from './webhooks';

export interface ProviderSandboxOptions {
  /** 0 = ephemeral */
  port: number;
  /** bind address; default 127.0.0.1 */
  host?: string;
  /** base URL put into tokens and links; default http://<host>:<port> */
  publicUrl?: string;
  mediaDir: string;
  /** the WordCut web app, e.g. http://localhost:4200 */
  editorUrl: string;
  /** default 'wordcut-provider-sandbox' */
  issuer?: string;
  /** default 'wordcut' */
  audience?: string;
  /** persist the keypair here so restarts keep tokens valid; else in memory */
  keyDir?: string;
  /** where webhooks are POSTed; none: events are recorded but not sent */
  webhookUrl?: string;
  /** HMAC secret of the webhook signatures; default DEFAULT_WEBHOOK_SECRET */
  webhookSecret?: string;
  /** pauses before each retry of a failed delivery; default [200, 400, 800] */
  webhookRetryDelaysMs?: number[];
  /** pause between `upload.completed` and `video.ready`; default 100 */
  webhookReadyDelayMs?: number;
  /** per delivery try; default 5000 */
  webhookTimeoutMs?: number;
  /** the key `POST /v1/audio/transcriptions` requires (`Authorization: Bearer <key>`); none: any or no key */
  transcriptionApiKey?: string;
}

export interface SignTokenOptions {
  /** default 3600; negative gives an already expired token */
  expiresInSec?: number;
  /** 'forged': a key that is not the sandbox's, under the sandbox's kid */
  key?: 'sandbox' | 'forged';
  alg?: SandboxSigningAlg;
  issuer?: string;
  audience?: string;
}

export type SandboxTokenClaims = Partial<ProviderTokenClaims> & { sessionId: string; videoId: string };

/** The claims of a verified session token: always a user. */
export type TokenClaims = SandboxTokenClaims & { sub: string };

export interface UploadRecord {
  bytes: number;
  contentType: string | null;
  /** where the received body was kept (removed on close) */
  path: string;
  uploadId: string;
  providerVideoId: string | null;
  sha256: string;
}

export interface ProviderSandbox {
  url: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
  publicKeyPem: string;
  webhookSecret: string;
  signToken(claims: SandboxTokenClaims, o?: SignTokenOptions): Promise<string>;
  /** the latest completed upload by `<session>/<kind>` */
  uploads: Map<string, UploadRecord>;
  /** every video of the library, in the order they joined it */
  library(): LibraryVideo[];
  /** adds a fault (see faults.ts); returns its id; throws on an invalid spec */
  addFault(spec: FaultSpec): string;
  clearFaults(): void;
  faults(): Fault[];
  /** the request log (control API calls excluded), oldest first */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  webhookEvents(): ProviderWebhookEvent[];
  webhookDeliveries(): WebhookDelivery[];
  /** sends any event now (no retries unless asked), optionally signed with another secret or time */
  sendWebhook(event: ProviderWebhookEvent, o?: WebhookSendOptions): Promise<WebhookSendResult>;
  /** sends a recorded event again: same id, new timestamp and signature */
  resendWebhook(eventId: string): Promise<WebhookSendResult>;
  /** resolves when no webhook delivery is under way */
  webhooksSettled(): Promise<void>;
  /** forgets library, uploads, faults, request and webhook logs */
  reset(): Promise<void>;
  close(): Promise<void>;
}
