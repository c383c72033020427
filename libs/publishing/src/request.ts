/**
 * The export request: its idempotency key, the
 * request built from the dialog's selection, the cloned-video token check, and the canonical JSON
 * the server fingerprints a request with (the same key must mean the same request).
 * Pure: no React, DOM, Node APIs or IO.
 */
import { EXPORT_ASPECT_RATIOS, MUTE_LEVELS, MUTE_VOLUME, type ExportMuteLevel, type ExportRequestInput } from '@wordcut/contracts';
import { DEFAULT_EXPORT_ASPECT_RATIO, itemKey, type ExportableItem, type PublishClip, type PublishVideo } from './items';
import { CLONED_TOKEN_MISMATCH, CLONED_TOKEN_UNPARSEABLE } from './messages';

/**
 * A request's idempotency key: the video id, a timestamp and a random part. One key
 * names one logical export: it is resent with the same request after a token refresh and on a
 * re-click after an attempt with no definitive answer (see IdempotencyKeys), so the server answers
 * the first job instead of starting a second one.
 */
export function newIdempotencyKey(videoId: string, nowMs: number, random: string): string {
  return `${videoId}-${nowMs}-${random}`;
}

/**
 * A mute range as the editor keeps it (pending mutes: startTime/endTime and their level) or as the
 * video record carries it (processed mutes, `Video.mutedSegments`: start/end and the volume they were
 * rendered at); both are accepted. Without a level or volume a range is silence.
 */
export type TimeRange =
  | { startTime: number; endTime: number; level?: ExportMuteLevel }
  | { start: number; end: number; level?: ExportMuteLevel; volume?: number };

export interface MuteSpan {
  start: number;
  end: number;
  level: ExportMuteLevel;
}


/** The level a processed mute was rendered at: the one whose volume is nearest. */
export function muteLevelOfVolume(volume: number): ExportMuteLevel {
  let best: ExportMuteLevel = 'silence';
  for (const level of MUTE_LEVELS) if (Math.abs(MUTE_VOLUME[level] - volume) < Math.abs(MUTE_VOLUME[best] - volume)) best = level;
  return best;
}

function levelOf(r: TimeRange): ExportMuteLevel {
  if (r.level) return r.level;
  return 'volume' in r && typeof r.volume === 'number' && Number.isFinite(r.volume) ? muteLevelOfVolume(r.volume) : 'silence';
}

/**
 * Mute ranges as the request sends them: finite, non-empty, clamped at 0, sorted, and with
 * overlapping or touching ranges of the same level merged (a pending mute may repeat a processed
 * one). Ranges of different levels are kept apart, even where they overlap: the library applies
 * each at its own level.
 */
export function mergeMuteSegments(ranges: readonly TimeRange[]): MuteSpan[] {
  const spans = ranges
    .map((r): MuteSpan => ('startTime' in r ? { start: r.startTime, end: r.endTime, level: levelOf(r) } : { start: r.start, end: r.end, level: levelOf(r) }))
    .map((r) => ({ ...r, start: Math.max(0, r.start) }))
    .filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end) && s.end > s.start)
    .sort(byStartEndLevel);
  const out: MuteSpan[] = [];
  const open = new Map<ExportMuteLevel, MuteSpan>();
  for (const s of spans) {
    const last = open.get(s.level);
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      continue;
    }
    const span = { ...s };
    out.push(span);
    open.set(s.level, span);
  }
  // merging lengthened some spans: sort again so the same mutes always give the same request
  return out.sort(byStartEndLevel);
}

function byStartEndLevel(a: MuteSpan, b: MuteSpan): number {
  return a.start - b.start || a.end - b.end || MUTE_LEVELS.indexOf(a.level) - MUTE_LEVELS.indexOf(b.level);
}

type ExportAspectRatio = (typeof EXPORT_ASPECT_RATIOS)[number];

function exportAspectRatio(ratio: string | null): ExportAspectRatio {
  return (EXPORT_ASPECT_RATIOS as readonly string[]).includes(ratio ?? '') ? (ratio as ExportAspectRatio) : (DEFAULT_EXPORT_ASPECT_RATIO as ExportAspectRatio);
}

/** An export request without its idempotency key and token: what the server fingerprints. */
export type ExportRequestBody = Omit<ExportRequestInput, 'idempotencyKey' | 'token'>;

export interface BuildExportBodyInput {
  video: Pick<PublishVideo, 'id'>;
  /** item keys (`${type}:${id}`, see itemKey) */
  selected: ReadonlySet<string>;
  /** the items the dialog offered; selected keys of other items are ignored */
  items: readonly ExportableItem[];
  /** the video's clip list, in list order (clipIndex is the position in it) */
  clips: readonly PublishClip[];
  pendingMutes: readonly TimeRange[];
  processedMutes: readonly TimeRange[];
  sessionId: string;
}

export interface BuildExportRequestInput extends BuildExportBodyInput {
  idempotencyKey: string;
  /** a cloned video's token, sent instead of the header's */
  token?: string;
}

/**
 * The POST /api/jobs/export body for the dialog's selection, without key and token:
 * the main video and subtitles flags, the pending and processed mutes merged, captions off and no
 * effects, and each selected clip with its index in the clip list, its aspect ratio (16:9 when it
 * has none or one the export does not know) and its duration.
 */
export function buildExportBody(input: BuildExportBodyInput): ExportRequestBody {
  const chosen = new Set(input.items.filter((i) => input.selected.has(itemKey(i))).map(itemKey));
  const clips: NonNullable<ExportRequestInput['clips']> = [];
  input.clips.forEach((clip, clipIndex) => {
    if (!chosen.has(itemKey({ type: 'clip', id: clip.id }))) return;
    clips.push({
      clipId: clip.id,
      clipIndex,
      aspectRatio: exportAspectRatio(clip.aspectRatio),
      duration: Math.max(0, clip.endTime - clip.startTime),
    });
  });
  return {
    videoId: input.video.id,
    sessionId: input.sessionId,
    saveMainVideo: chosen.has(itemKey({ type: 'main_video', id: input.video.id })),
    saveVtt: chosen.has(itemKey({ type: 'vtt', id: input.video.id })),
    mainVideoEdits: {
      muteSegments: mergeMuteSegments([...input.pendingMutes, ...input.processedMutes]),
      captionsEnabled: false,
      effectsApplied: [],
    },
    clips,
  };
}

/** The full export request: {@link buildExportBody} with its idempotency key and, for a cloned video, its token. */
export function buildExportRequest(input: BuildExportRequestInput): ExportRequestInput {
  const request: ExportRequestInput = { ...buildExportBody(input), idempotencyKey: input.idempotencyKey };
  if (input.token) request.token = input.token;
  return request;
}

/**
 * Before exporting with a cloned video's token: its session id must be the
 * video's (the refreshed video record may still show the old session). Returns the message to
 * show, or null when the token may be used. Claims that could not be read (null) give
 * 'Failed to process cloned video token'.
 */
export function validateClonedToken(claims: { readonly sessionId?: unknown } | null, video: { providerSessionId: string | null }): string | null {
  if (claims === null) return CLONED_TOKEN_UNPARSEABLE;
  const sessionId = claims.sessionId;
  if (typeof sessionId !== 'string' || !sessionId || sessionId !== video.providerSessionId) return CLONED_TOKEN_MISMATCH;
  return null;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Base64url (padding optional) to bytes; null on any character outside the alphabet or a bad length. */
export function base64UrlToBytes(text: string): Uint8Array | null {
  const s = text.replace(/=+$/, '');
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const v = B64URL.indexOf(s[i]!);
    if (v < 0) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

/** Strict UTF-8 decoding (no TextDecoder: this library sees neither DOM nor Node types); null when malformed. */
export function utf8Decode(bytes: Uint8Array): string | null {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    let cp: number;
    let n: number;
    if (b < 0x80) [cp, n] = [b, 0];
    else if (b >= 0xc2 && b < 0xe0) [cp, n] = [b & 0x1f, 1];
    else if (b >= 0xe0 && b < 0xf0) [cp, n] = [b & 0x0f, 2];
    else if (b >= 0xf0 && b < 0xf5) [cp, n] = [b & 0x07, 3];
    else return null;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (c & 0x3f);
    }
    // overlong forms, surrogates and values past U+10FFFF are not UTF-8
    if ((n === 2 && cp < 0x800) || (n === 3 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    out += String.fromCodePoint(cp);
    i += n + 1;
  }
  return out;
}

/**
 * A JWT's payload claims, read WITHOUT verifying the signature: only for the browser's sanity
 * check of a cloned video's token (the gateway verifies every token it receives). Null when the
 * token is not three dot-separated parts or its payload is not a base64url JSON object.
 */
export function decodeTokenClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  const bytes = base64UrlToBytes(parts[1]);
  if (!bytes) return null;
  const json = utf8Decode(bytes);
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * JSON with object keys sorted (recursively), so equal requests give equal text whatever the key
 * order: the server stores a request's fingerprint with its idempotency key and refuses the same
 * key with a different body. Otherwise as JSON.stringify: toJSON is honoured, undefined,
 * functions and symbols are left out of objects and are null in arrays (and at the top level),
 * non-finite numbers are null. Cycles and bigints throw a TypeError.
 */
export function canonicalJson(value: unknown): string {
  const seen: object[] = [];
  const walk = (v: unknown, inArray: boolean): string | undefined => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON: () => unknown }).toJSON();
    }
    // boxed primitives serialise as their value, as in JSON.stringify
    if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
    if (v === null) return 'null';
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Number.isFinite(v) ? JSON.stringify(v) : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'bigint':
        throw new TypeError('canonicalJson cannot serialise a bigint');
      case 'undefined':
      case 'function':
      case 'symbol':
        return inArray ? 'null' : undefined;
    }
    const obj = v as object;
    if (seen.includes(obj)) throw new TypeError('canonicalJson cannot serialise a cycle');
    seen.push(obj);
    let text: string;
    if (Array.isArray(obj)) {
      text = `[${obj.map((x) => walk(x, true)).join(',')}]`;
    } else {
      const record = obj as Record<string, unknown>;
      const fields: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const t = walk(record[key], false);
        if (t !== undefined) fields.push(`${JSON.stringify(key)}:${t}`);
      }
      text = `{${fields.join(',')}}`;
    }
    seen.pop();
    return text;
  };
  return walk(value, true) ?? 'null';
}
