import type { ExportError, ExportRefusal } from '@wordcut/contracts';

/** Export error codes this service answers with (docs/PUBLISHING.md lists them). */
export const ExportCode = {
  InvalidRequest: 'invalid_request',
  IdempotencyKeyReused: 'idempotency_key_reused',
  QuotaExceeded: 'quota_exceeded',
  NotFound: 'not_found',
  NotRetryable: 'not_retryable',
  SessionMismatch: 'session_mismatch',
  ExportInProgress: 'export_in_progress',
  Unauthorized: 'unauthorized',
  ProviderUnavailable: 'provider_unavailable',
  ExportFailed: 'export_failed',
} as const;

export const Messages = {
  idempotencyKeyReused: 'This idempotency key was already used with a different request.',
  notFound: 'Export job not found.',
  notRetryable: 'Only a failed export can be retried.',
  /** a token (a cloned video's) for another session than the request names */
  sessionMismatch: 'Export delayed - Video data is updating, please try again in a moment',
  exportInProgress: 'This video is already being published. Its export is shown; publish again when it has finished.',
  unauthorized: 'The provider refused the session token. Please reload the page.',
  providerUnavailable: 'The provider is unavailable right now. Please try again in a moment.',
  exportFailed: 'Export failed. Please try again.',
} as const;

/** A domain refusal as carried over NATS: the HTTP status the gateway answers with, and the export error body. */
export function refusal(status: number, error: ExportError): { ok: false; refusal: ExportRefusal } {
  return { ok: false, refusal: { status, ...error } };
}

/** Technical details are for a collapsible section: one line, bounded. */
export function detailsOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'unknown error';
}
