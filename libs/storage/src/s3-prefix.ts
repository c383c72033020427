/** Operations on every object under a key prefix: listing them and deleting them in batches. */
import { createHash } from 'node:crypto';
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { StorageError } from './errors';
import type { StoredObject } from './object-storage';
import { s3Failure, type S3Target } from './s3-target';

/**
 * DeleteObjects must carry Content-MD5 for MinIO (older releases) and S3-compatibles; aws-sdk v3
 * (>= 3.729) sends a CRC32 checksum instead. Added in the build step, i.e. before signing.
 */
function addContentMd5(request: unknown): void {
  const r = request as { headers?: Record<string, string>; body?: unknown } | undefined;
  if (r && r.headers && (typeof r.body === 'string' || r.body instanceof Uint8Array)) {
    r.headers['content-md5'] = createHash('md5').update(r.body).digest('base64');
  }
}

/** Every object whose key starts with `prefix` (non-empty), in key order. */
export async function listPrefix(target: S3Target, prefix: string): Promise<StoredObject[]> {
  const { client, bucket } = target;
  if (!prefix) throw new Error('list needs a non-empty prefix');
  const out: StoredObject[] = [];
  let continuationToken: string | undefined;
  try {
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: continuationToken }));
      for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, sizeBytes: o.Size ?? 0 });
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  } catch (err) {
    throw s3Failure(bucket, err, 'ListObjects', prefix);
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Deletes every object whose key starts with `prefix` (non-empty), a listed page at a time; how many. */
export async function deletePrefix(target: S3Target, prefix: string): Promise<number> {
  const { client, bucket } = target;
  if (!prefix) throw new Error('deletePrefix needs a non-empty prefix (refusing to empty the bucket)');
  let deleted = 0;
  let continuationToken: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
      if (keys.length > 0) {
        const cmd = new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        });
        cmd.middlewareStack.add(
          (next) => async (args) => {
            addContentMd5(args.request);
            return next(args);
          },
          { step: 'build', name: 'wordcutContentMd5' },
        );
        const r = await client.send(cmd);
        const failed = r.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new StorageError(
            `deletePrefix(${prefix}): ${failed.length} object(s) not deleted, e.g. ${first?.Key}: ${first?.Code} ${first?.Message ?? ''}`.trim(),
            bucket,
            first?.Key,
          );
        }
        deleted += keys.length;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  } catch (err) {
    if (err instanceof StorageError) throw err;
    throw s3Failure(bucket, err, 'DeletePrefix', prefix);
  }
  return deleted;
}
