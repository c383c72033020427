/**
 * The provider's webhook signatures (header `Provider-Signature: t=<unix seconds>,v1=<hex>`), in the
 * scheme Stripe made common: `v1` is HMAC-SHA256(secret, `${t}.${rawBody}`) in hex.
 *
 * Why each rule:
 * - the HMAC covers the RAW body bytes: verify before parsing, never re-serialise the JSON;
 * - the timestamp is signed too, and refused outside a tolerance window (default 5 min), so a
 *   captured request cannot be replayed later (replays inside the window are stopped by the
 *   receiver remembering event ids);
 * - several `v1` entries may be present while the provider rotates its secret: one match is enough;
 * - signatures are compared in constant time (crypto.timingSafeEqual on equal-length buffers).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lower case: node's IncomingMessage headers are lower-cased. */
export const WEBHOOK_SIGNATURE_HEADER = 'provider-signature';
export const DEFAULT_WEBHOOK_TOLERANCE_SEC = 300;

export type WebhookVerification =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/** HMAC-SHA256 of `${timestampSec}.${rawBody}` as hex. */
function v1Signature(secret: string, rawBody: string | Buffer, timestampSec: number): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

/**
 * The header value for a body: `t=<unix seconds>,v1=<hex>`. Several secrets (rotation) give one
 * `v1` entry each, in order.
 */
export function signWebhook(secret: string | readonly string[], rawBody: string | Buffer, timestampSec: number): string {
  if (!Number.isInteger(timestampSec)) throw new Error('signWebhook: timestampSec must be an integer (unix seconds)');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => !s)) throw new Error('signWebhook: a non-empty secret is required');
  return [`t=${timestampSec}`, ...secrets.map((s) => `v1=${v1Signature(s, rawBody, timestampSec)}`)].join(',');
}

/** `t` and the `v1` entries of a header, or null when it is not of that form (other schemes are ignored). */
export function parseSignatureHeader(header: string): { timestamp: number; v1: string[] } | null {
  let timestamp: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  return timestamp === null || v1.length === 0 ? null : { timestamp, v1 };
}

/**
 * Checks a webhook request: header present and well formed, timestamp within `toleranceSec` of now
 * (either way: a far-future timestamp would make a captured request replayable for long), and one
 * `v1` entry matching the HMAC under the secret (or any of the secrets, while rotating on our side).
 */
export function verifyWebhookSignature(o: {
  secret: string | readonly string[];
  rawBody: Buffer | string;
  header: string | undefined;
  nowSec?: number;
  toleranceSec?: number;
}): WebhookVerification {
  if (!o.header || !o.header.trim()) return { ok: false, reason: 'missing_header' };
  const parsed = parseSignatureHeader(o.header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const now = o.nowSec ?? Math.floor(Date.now() / 1000);
  const tolerance = o.toleranceSec ?? DEFAULT_WEBHOOK_TOLERANCE_SEC;
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const secrets = typeof o.secret === 'string' ? [o.secret] : o.secret;
  const received = parsed.v1.map((hex) => Buffer.from(hex, 'hex'));
  let match = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = Buffer.from(v1Signature(secret, o.rawBody, parsed.timestamp), 'hex');
    // no early exit: the time taken does not depend on which entry matched
    for (const candidate of received) if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) match = true;
  }
  return match ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'signature_mismatch' };
}
