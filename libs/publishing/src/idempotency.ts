/**
 * Which idempotency key a click on 'Publish' sends (Stripe's guidance: a key names
 * one logical operation). The server stores a key with the fingerprint of its request and replays
 * the first answer for the same key and request, so resending a key can never start a second
 * export, while a fresh key always may. Hence:
 * - a re-click with the same request after an attempt whose outcome the browser never learnt (no
 *   answer, a timeout, a 5xx such as the gateway's 503 export_failed when the export service did
 *   not answer in time, a success answer it could not read) resends the key: the job the server
 *   may have started is answered instead of doubled;
 * - a definitive answer (the job started, or a 4xx refusal that stored nothing) ends the
 *   operation: the next click is a new one with a new key;
 * - a changed request (selection, mutes, session after a clone) is a new operation: the server
 *   refuses a known key with another request (422 idempotency_key_reused).
 * Pure: no React, DOM, Node APIs or IO; the caller mints keys (the clock and randomness are its own).
 */
import type { ExportRequestInput } from '@wordcut/contracts';
import { canonicalJson, type ExportRequestBody } from './request';

/**
 * The text a request is compared by: its canonical JSON without the idempotency key and the token,
 * as the server fingerprints it (the token is refreshed every 10 minutes and a cloned video's
 * token changes nothing about what is exported).
 */
export function requestBodyJson(request: ExportRequestBody | ExportRequestInput): string {
  const { idempotencyKey: _key, token: _token, ...body } = request as ExportRequestInput;
  return canonicalJson(body);
}

/** How an attempt to create an export ended, as far as its key is concerned. */
export type ExportAttemptEnd = 'started' | 'refused' | 'unknown';

/**
 * How a failed attempt ended, from the HTTP status of the answer that ended it (null when none
 * was read: a network error, a timeout, an unreadable body). A 4xx is a refusal: the server
 * stored nothing under the key. Anything else leaves the outcome unknown: a 5xx may come from a
 * proxy or a gateway that gave up while the export service went on.
 */
export function failedAttemptEnd(status: number | null): Exclude<ExportAttemptEnd, 'started'> {
  return status !== null && status >= 400 && status < 500 ? 'refused' : 'unknown';
}

/**
 * The idempotency keys of one publish dialog: the key of the last request stays open, and is
 * handed out again for the same request, until an attempt with it gets a definitive answer. An
 * attempt still in flight counts as unknown too, so a double click sends one key.
 */
export class IdempotencyKeys {
  private open: { readonly key: string; readonly body: string } | null = null;

  /** `mint` makes a new key for a request (newIdempotencyKey with the caller's clock and randomness). */
  constructor(private readonly mint: (request: ExportRequestBody) => string) {}

  /** The key to send with `request`: the open key when the request is the same, else a new one, which becomes the open key. */
  keyFor(request: ExportRequestBody): string {
    const body = requestBodyJson(request);
    if (this.open?.body !== body) this.open = { key: this.mint(request), body };
    return this.open.key;
  }

  /** Records how an attempt with `key` ended: a definitive answer closes the key, an unknown outcome keeps it for a re-click. */
  settle(key: string, end: ExportAttemptEnd): void {
    if (end !== 'unknown' && this.open?.key === key) this.open = null;
  }
}
