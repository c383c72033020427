/**
 * The multipart upload of a file another process is still writing: parts go up as the file grows,
 * early parts are checked again once it is finished.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { StorageError, UploadAbortedError } from './errors';
import type { GrowingFileOptions, UploadOptions, UploadResult } from './object-storage';
import { s3Failure, stripQuotes } from './s3-target';
import type { UploadTarget } from './s3-upload';

/**
 * Uploads a file while another process is still writing it (a muxer that rewrites only its first
 * bytes at the end, as an MP4 with its index last does): parts from the second on go up as the
 * file grows past them, the first part and the rest once `finished` resolves. Every early part is
 * read again at the end and sent again if its bytes changed, so the stored object is always the
 * finished file. A file smaller than one part is sent in one put, through `upload`.
 */
export async function uploadGrowingLocalFile(
  target: UploadTarget,
  key: string,
  path: string,
  opts: GrowingFileOptions,
  upload: (key: string, body: Buffer, opts: UploadOptions) => Promise<UploadResult>,
): Promise<UploadResult> {
  const { client, bucket } = target;
  const { finished, signal, contentType } = opts;
  let writerDone = false;
  let writerError: unknown = null;
  finished.then(
    () => (writerDone = true),
    (err: unknown) => {
      writerDone = true;
      writerError = err ?? new Error('the writer failed');
    },
  );
  const size = await waitForGrowth(bucket, path, signal, () => writerDone);
  const partSize = target.partSize;
  let uploadId: string | undefined;
  let fh: FileHandle | undefined;
  try {
    const read = async (start: number, end: number): Promise<Buffer> => {
      const buf = Buffer.alloc(end - start);
      const { bytesRead } = await fh!.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    };
    fh = await open(path, 'r');
    if (writerDone && !writerError && size <= partSize) {
      await finished;
      const whole = await read(0, (await fh.stat()).size);
      return await upload(key, whole, { contentType, signal });
    }
    uploadId = (await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }))).UploadId;
    if (!uploadId) throw new Error('the store gave no multipart upload id');
    const sent = new Map<number, { etag: string; md5: string; start: number; end: number }>();
    const put = async (partNumber: number, start: number, end: number): Promise<void> => {
      if (signal?.aborted) throw new UploadAbortedError(bucket, key, { cause: signal.reason });
      const body = await read(start, end);
      const r = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body }));
      sent.set(partNumber, { etag: r.ETag ?? '', md5: createHash('md5').update(body).digest('hex'), start, end });
    };
    // parts 2.. while the writer runs (part 1 holds the bytes it rewrites last), queueSize at once
    const inFlight = new Set<Promise<void>>();
    const start = (partNumber: number, from: number, to: number): void => {
      const p: Promise<void> = put(partNumber, from, to).finally(() => inFlight.delete(p));
      // handled where the parts are awaited; marked now so a failure before then never goes unhandled
      p.catch(() => undefined);
      inFlight.add(p);
    };
    let next = partSize;
    let partNumber = 2;
    for (;;) {
      const grown = (await fh.stat()).size;
      if (grown >= next + partSize) {
        if (inFlight.size >= target.queueSize) await Promise.race(inFlight);
        start(partNumber++, next, next + partSize);
        next += partSize;
        continue;
      }
      if (writerDone) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await finished;
    const total = (await fh.stat()).size;
    if (total > next) start(partNumber++, next, total);
    start(1, 0, Math.min(partSize, total));
    await Promise.all(inFlight);
    // an early part whose bytes changed after it was sent goes again
    for (const [n, p] of [...sent]) {
      if (n === 1) continue;
      const now = await read(p.start, p.end);
      if (createHash('md5').update(now).digest('hex') !== p.md5) await put(n, p.start, p.end);
    }
    const parts = [...sent].sort((a, b) => a[0] - b[0]).map(([PartNumber, p]) => ({ PartNumber, ETag: p.etag }));
    const done = await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    const etag = stripQuotes(done.ETag);
    return etag === undefined ? { key, sizeBytes: total } : { key, sizeBytes: total, etag };
  } catch (err) {
    if (uploadId) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
    }
    if (signal?.aborted) throw new UploadAbortedError(bucket, key, { cause: signal.reason ?? err });
    // the writer's failure is the cause of anything that went wrong after it
    if (writerError) throw writerError;
    if (err instanceof StorageError) throw err;
    throw s3Failure(bucket, err, 'Upload', key);
  } finally {
    await fh?.close();
  }
}

/** Waits until the file exists (or the writer ended); its size then. */
async function waitForGrowth(bucket: string, path: string, signal: AbortSignal | undefined, writerDone: () => boolean): Promise<number> {
  for (;;) {
    if (signal?.aborted) throw new UploadAbortedError(bucket, path, { cause: signal.reason });
    try {
      const h = await open(path, 'r');
      try {
        return (await h.stat()).size;
      } finally {
        await h.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (writerDone()) throw new Error(`${path} was never written`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
