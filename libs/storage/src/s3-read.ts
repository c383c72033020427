/** Reads of one object: its metadata (HeadObject) and its bytes or a byte range of them (GetObject). */
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { InvalidRangeError, ObjectNotFoundError, StorageError, isNotFoundError, sdkErrorName, sdkHttpStatus } from './errors';
import { formatRangeHeader, type ByteRange, type ObjectHead, type ObjectStream } from './object-storage';
import { s3Failure, stripQuotes, type S3Target } from './s3-target';

/** Metadata of an object, or null when it does not exist. */
export async function headObject(target: S3Target, key: string): Promise<ObjectHead | null> {
  const { client, bucket } = target;
  try {
    const r = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    const head: ObjectHead = { sizeBytes: r.ContentLength ?? 0 };
    if (r.ContentType) head.contentType = r.ContentType;
    const etag = stripQuotes(r.ETag);
    if (etag) head.etag = etag;
    return head;
  } catch (err) {
    if (isNotFoundError(err)) return null;
    throw s3Failure(bucket, err, 'HeadObject', key);
  }
}

/** An object's bytes (or a range of them) as a Node stream; missing => ObjectNotFoundError, outside => InvalidRangeError. */
export async function getObjectStream(target: S3Target, key: string, range?: ByteRange): Promise<ObjectStream> {
  const { client, bucket } = target;
  const rangeHeader = range ? formatRangeHeader(range) : undefined;
  try {
    const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: rangeHeader }));
    if (!(r.Body instanceof Readable)) {
      throw new StorageError(`GetObject of s3://${bucket}/${key} returned no Node stream`, bucket, key);
    }
    const out: ObjectStream = { body: r.Body, contentLength: r.ContentLength ?? 0 };
    if (r.ContentRange) out.contentRange = r.ContentRange;
    if (r.ContentType) out.contentType = r.ContentType;
    return out;
  } catch (err) {
    if (err instanceof StorageError) throw err;
    if (isNotFoundError(err)) throw new ObjectNotFoundError(bucket, key, { cause: err });
    if (rangeHeader && (sdkErrorName(err) === 'InvalidRange' || sdkHttpStatus(err) === 416)) {
      throw new InvalidRangeError(bucket, key, rangeHeader, { cause: err });
    }
    throw s3Failure(bucket, err, 'GetObject', key);
  }
}
