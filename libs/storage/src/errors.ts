/** Base class of every error thrown by @wordcut/storage. `cause` keeps the SDK error. */
export class StorageError extends Error {
  override readonly name: string = 'StorageError';
  constructor(
    message: string,
    readonly bucket: string,
    readonly key?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The object (or bucket) does not exist. */
export class ObjectNotFoundError extends StorageError {
  override readonly name = 'ObjectNotFoundError';
  constructor(bucket: string, key: string, options?: { cause?: unknown }) {
    super(`object not found: s3://${bucket}/${key}`, bucket, key, options);
  }
}

/** A ranged read asked for bytes outside the object (HTTP 416). */
export class InvalidRangeError extends StorageError {
  override readonly name = 'InvalidRangeError';
  constructor(bucket: string, key: string, range: string, options?: { cause?: unknown }) {
    super(`range ${range} is not satisfiable for s3://${bucket}/${key}`, bucket, key, options);
  }
}

/** The storage endpoint could not be reached or the bucket is not usable (ping / health checks). */
export class StorageUnavailableError extends StorageError {
  override readonly name = 'StorageUnavailableError';
}

/** An upload was cancelled through its AbortSignal. */
export class UploadAbortedError extends StorageError {
  override readonly name = 'UploadAbortedError';
  constructor(bucket: string, key: string, options?: { cause?: unknown }) {
    super(`upload of s3://${bucket}/${key} was aborted`, bucket, key, options);
  }
}

interface SdkErrorShape {
  name?: string;
  Code?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** HTTP status of an aws-sdk error, if it carries one. */
export function sdkHttpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  return (err as SdkErrorShape).$metadata?.httpStatusCode;
}

/** Error name/code of an aws-sdk (or Node) error. */
export function sdkErrorName(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as SdkErrorShape;
  return e.Code ?? e.name ?? e.code;
}

/** True when an aws-sdk error means "no such key / bucket". */
export function isNotFoundError(err: unknown): boolean {
  const name = sdkErrorName(err);
  return name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket' || sdkHttpStatus(err) === 404;
}
