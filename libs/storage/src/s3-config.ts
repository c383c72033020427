/** The S3 store's settings: part sizes, presign limits, timeouts, and the SDK client config they make. */
import type { S3ClientConfig } from '@aws-sdk/client-s3';

export const MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 4;
/** The largest object S3 (and MinIO) takes in one PUT. */
export const SINGLE_PUT_MAX_BYTES = 5 * 1024 ** 3;
export const DEFAULT_PRESIGN_TTL_SECONDS = 900;
/** S3 caps presigned URLs (SigV4) at 7 days. */
export const MAX_PRESIGN_TTL_SECONDS = 7 * 24 * 3600;

export interface S3StorageConfig {
  /** e.g. http://minio:9000 or http://127.0.0.1:4568; absent = AWS. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** true for MinIO and s3rver (http://host/bucket/key). */
  forcePathStyle: boolean;
  /**
   * Endpoint written into presigned URLs, when browsers reach the store under another name than the
   * services do (e.g. https://media.example.com vs http://minio:9000). Default: `endpoint`.
   */
  publicEndpoint?: string;
  /** Multipart part size (>= 5 MiB). Memory per upload is at most queueSize * partSize. Default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded in parallel per upload. Default 4. */
  queueSize?: number;
  /** SDK attempts per request (1 = no retry). Default 3. */
  maxAttempts?: number;
  /** TCP connect timeout. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Idle socket timeout (no bytes either way). Default 300000 ms; 0 disables. */
  socketTimeoutMs?: number;
  /** Timeout of ping(). Default 3000 ms. */
  pingTimeoutMs?: number;
  /** Replaces the SDK's HTTP handler (custom agents; tests). Timeouts above are then ignored. */
  requestHandler?: S3ClientConfig['requestHandler'];
}

/** The SDK client config for `endpoint` (the services' one, or the public one presigned URLs name). */
export function s3ClientConfig(config: S3StorageConfig, endpoint: string | undefined): S3ClientConfig {
  return {
    ...(endpoint ? { endpoint } : {}),
    region: config.region,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    forcePathStyle: config.forcePathStyle,
    // Flexible checksums (default since aws-sdk 3.729) use aws-chunked bodies and CRC32 headers that
    // s3rver stores verbatim and older MinIO rejects; only send checksums where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: config.maxAttempts ?? 3,
    requestHandler: config.requestHandler ?? {
      connectionTimeout: config.connectTimeoutMs ?? 5000,
      socketTimeout: config.socketTimeoutMs ?? 300_000,
    },
  };
}
