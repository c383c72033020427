/**
 * Uploads of a whole body: a stream or buffer through lib-storage (multipart when large, never
 * buffered whole), and a finished local file in one PUT up to the store's single-object limit.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, pipeline } from 'node:stream';
import { AbortMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { UploadAbortedError } from './errors';
import type { UploadOptions, UploadResult } from './object-storage';
import { SINGLE_PUT_MAX_BYTES } from './s3-config';
import { s3Failure, stripQuotes, type S3Target } from './s3-target';

/** An S3 target with its multipart settings. */
export interface UploadTarget extends S3Target {
  readonly partSize: number;
  /** parts in flight at once per upload */
  readonly queueSize: number;
}

/** The streaming upload behind ObjectStorage.upload. */
export async function uploadBody(target: UploadTarget, key: string, body: Readable | Buffer, opts: UploadOptions = {}): Promise<UploadResult> {
  const { client, bucket } = target;
  const { signal, onProgress, contentType } = opts;
  if (signal?.aborted) {
    if (body instanceof Readable) body.destroy();
    throw new UploadAbortedError(bucket, key, { cause: signal.reason });
  }

  let sizeBytes = 0;
  let source: Readable | Buffer;
  if (Buffer.isBuffer(body)) {
    sizeBytes = body.length;
    source = body;
  } else {
    // Counts bytes while lib-storage pulls the stream part by part (never the whole body).
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        sizeBytes += chunk.length;
        cb(null, chunk);
      },
    });
    pipeline(body, counter, () => {
      /* errors surface through the Upload reading `counter` */
    });
    source = counter;
  }

  const abortController = new AbortController();
  const onAbort = () => abortController.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: source, ContentType: contentType },
    partSize: target.partSize,
    queueSize: target.queueSize,
    // We abort the multipart upload ourselves so that its failure never masks the original error.
    leavePartsOnError: true,
    abortController,
  });
  if (onProgress) {
    upload.on('httpUploadProgress', (p) => {
      if (typeof p.loaded === 'number') onProgress(p.loaded);
    });
  }

  try {
    const result = await upload.done();
    const etag = stripQuotes(result.ETag);
    return etag === undefined ? { key, sizeBytes } : { key, sizeBytes, etag };
  } catch (err) {
    // Stop reading the caller's stream too (pipeline would, but only after a tick).
    if (source instanceof Readable) source.destroy();
    if (body instanceof Readable) body.destroy();
    if (upload.uploadId) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: upload.uploadId }))
        .catch(() => undefined); // best effort (s3rver does not implement it)
    }
    if (signal?.aborted || abortController.signal.aborted) {
      throw new UploadAbortedError(bucket, key, { cause: signal?.reason ?? err });
    }
    throw s3Failure(bucket, err, 'Upload', key);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Uploads a finished local file: one streamed PUT up to the store's single-object limit (a
 * multipart upload costs the store a second pass joining its parts: 3x slower on s3rver for a
 * 355 MiB file), through `upload` (multipart) above it.
 */
export async function uploadLocalFile(
  target: S3Target,
  key: string,
  path: string,
  opts: UploadOptions,
  upload: (key: string, body: Readable, opts: UploadOptions) => Promise<UploadResult>,
): Promise<UploadResult> {
  const { client, bucket } = target;
  const { signal, contentType } = opts;
  const fh = await open(path, 'r');
  let sizeBytes: number;
  try {
    sizeBytes = (await fh.stat()).size;
  } finally {
    await fh.close();
  }
  if (sizeBytes > SINGLE_PUT_MAX_BYTES) return upload(key, createReadStream(path), opts);
  if (signal?.aborted) throw new UploadAbortedError(bucket, key, { cause: signal.reason });
  const body = createReadStream(path);
  try {
    const r = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: sizeBytes, ContentType: contentType }), { abortSignal: signal });
    const etag = stripQuotes(r.ETag);
    return etag === undefined ? { key, sizeBytes } : { key, sizeBytes, etag };
  } catch (err) {
    body.destroy();
    if (signal?.aborted) throw new UploadAbortedError(bucket, key, { cause: signal.reason ?? err });
    throw s3Failure(bucket, err, 'Upload', key);
  }
}
