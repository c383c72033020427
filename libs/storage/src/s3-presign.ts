/** Presigned GET and PUT URLs, signed with the client of the endpoint browsers reach. */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MAX_PRESIGN_TTL_SECONDS } from './s3-config';
import type { S3Target } from './s3-target';

/** A URL that reads `key` for `ttlSeconds`. */
export async function presignGetUrl(target: S3Target, key: string, ttlSeconds: number): Promise<string> {
  return getSignedUrl(target.client, new GetObjectCommand({ Bucket: target.bucket, Key: key }), {
    expiresIn: checkTtl(ttlSeconds),
  });
}

/** A URL that writes `key` for `ttlSeconds`; the uploader must send `contentType` when given (it is signed). */
export async function presignPutUrl(target: S3Target, key: string, ttlSeconds: number, contentType?: string): Promise<string> {
  return getSignedUrl(
    target.client,
    new PutObjectCommand({ Bucket: target.bucket, Key: key, ContentType: contentType }),
    // Sign Content-Type so that the store refuses an upload declaring another type.
    contentType
      ? { expiresIn: checkTtl(ttlSeconds), signableHeaders: new Set(['content-type']) }
      : { expiresIn: checkTtl(ttlSeconds) },
  );
}

function checkTtl(ttlSeconds: number): number {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_PRESIGN_TTL_SECONDS) {
    throw new RangeError(`presign ttlSeconds must be an integer in 1..${MAX_PRESIGN_TTL_SECONDS}, got ${ttlSeconds}`);
  }
  return ttlSeconds;
}
