/**
 * What every S3 operation shares: the client and bucket it sends to, how an SDK failure becomes a
 * StorageError, and the ETag as the store answers it.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { StorageError, sdkErrorName, sdkHttpStatus } from './errors';

/** The client and bucket an operation sends to. */
export interface S3Target {
  readonly client: S3Client;
  readonly bucket: string;
}

/** An SDK failure of `operation` as a StorageError (a StorageError passes through). */
export function s3Failure(bucket: string, err: unknown, operation: string, key?: string): StorageError {
  if (err instanceof StorageError) return err;
  const status = sdkHttpStatus(err);
  const where = key === undefined ? `s3://${bucket}` : `s3://${bucket}/${key}`;
  return new StorageError(
    `${operation} ${where} failed: ${describeError(err)}${status ? ` (HTTP ${status})` : ''}`,
    bucket,
    key,
    { cause: err },
  );
}

/** An ETag without the quotes S3 puts around it. */
export function stripQuotes(etag: string | undefined): string | undefined {
  return etag ? etag.replace(/^"+|"+$/g, '') : undefined;
}

/** One line about an SDK / network error, including nested causes (AggregateError of ECONNREFUSED ...). */
export function describeError(err: unknown, depth = 0): string {
  // Duck-typed on purpose: errors from another realm (jest, vm) fail `instanceof Error`.
  if (typeof err !== 'object' || err === null || !('message' in err)) return String(err);
  const e = err as Error & { code?: unknown; errors?: unknown[] };
  const name = sdkErrorName(err);
  const code = typeof e.code === 'string' ? e.code : undefined;
  let text = String(e.message || name || 'unknown error').replace(/^AWS SDK error wrapper for /, '');
  if (code && !text.includes(code)) text = `${code} ${text}`;
  if (name && name !== 'Error' && !text.includes(name)) text = `${name}: ${text}`;
  if (depth >= 3) return text;
  if (Array.isArray(e.errors) && e.errors.length > 0) return `${text} <- ${describeError(e.errors[0], depth + 1)}`;
  if (e.cause !== undefined && e.cause !== err) return `${text} <- ${describeError(e.cause, depth + 1)}`;
  return text;
}
