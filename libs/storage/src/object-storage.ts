import type { Readable } from 'node:stream';
import { ObjectNotFoundError } from './errors';

/** A byte range of a ranged read; `end` is inclusive (HTTP semantics), absent = to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface UploadOptions {
  contentType?: string;
  /** Called with the cumulative number of bytes the store has acknowledged. */
  onProgress?: (loadedBytes: number) => void;
  /** Aborting rejects with UploadAbortedError and stops sending parts. */
  signal?: AbortSignal;
}

export interface GrowingFileOptions {
  /** settles when the writer has finished the file (rejects: it failed, and so does the upload) */
  finished: Promise<unknown>;
  contentType?: string;
  signal?: AbortSignal;
}

export interface UploadResult {
  key: string;
  sizeBytes: number;
  etag?: string;
}

export interface ObjectHead {
  sizeBytes: number;
  contentType?: string;
  etag?: string;
}

export interface ObjectStream {
  body: Readable;
  contentLength: number;
  /** `bytes start-end/total` for ranged reads. */
  contentRange?: string;
  contentType?: string;
}

/** The object store every service talks to (MinIO deployed, s3rver locally). */
/** An object's key and size in bytes. */
export interface StoredObject {
  key: string;
  sizeBytes: number;
}

export interface ObjectStorage {
  readonly bucket: string;
  /** Creates the bucket when it does not exist; safe to call any number of times. */
  ensureBucket(): Promise<void>;
  /** HeadBucket: resolves when the store is reachable and the bucket exists (for /healthz). */
  ping(): Promise<void>;
  /** Streaming (multipart when large) upload; never buffers the whole body. */
  upload(key: string, body: Readable | Buffer, opts?: UploadOptions): Promise<UploadResult>;
  /** Uploads a finished local file (one PUT when the store takes it whole). */
  uploadFile(key: string, path: string, opts?: UploadOptions): Promise<UploadResult>;
  /** Uploads a local file while another process still writes it (see S3ObjectStorage). */
  uploadGrowingFile(key: string, path: string, opts: GrowingFileOptions): Promise<UploadResult>;
  /** Metadata of an object, or null when it does not exist. */
  head(key: string): Promise<ObjectHead | null>;
  /** Reads an object (or a byte range of it). Missing => ObjectNotFoundError. */
  getStream(key: string, range?: ByteRange): Promise<ObjectStream>;
  presignGet(key: string, ttlSeconds?: number): Promise<string>;
  presignPut(key: string, ttlSeconds?: number, contentType?: string): Promise<string>;
  /** Deletes an object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (must be non-empty), in key order. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Deletes every object whose key starts with `prefix` (must be non-empty); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/** `Range` header value for a ByteRange; validates it. */
export function formatRangeHeader(range: ByteRange): string {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new RangeError(`range start must be a non-negative integer, got ${start}`);
  }
  if (end === undefined) return `bytes=${start}-`;
  if (!Number.isSafeInteger(end) || end < start) {
    throw new RangeError(`range end must be an integer >= start (${start}), got ${end}`);
  }
  return `bytes=${start}-${end}`;
}

/** Parses `bytes start-end/total` (total may be `*`). */
export function parseContentRange(
  value: string | undefined,
): { start: number; end: number; total: number | null } | null {
  if (!value) return null;
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value.trim());
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

/** A whole (small) object's bytes, or null when there is no such object. */
export async function readObjectBytes(storage: Pick<ObjectStorage, 'getStream'>, key: string): Promise<Uint8Array | null> {
  try {
    const { body } = await storage.getStream(key);
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  } catch (err) {
    if (err instanceof ObjectNotFoundError) return null;
    throw err;
  }
}
