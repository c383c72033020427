/**
 * The one S3 implementation of ObjectStorage: its clients, settings and bucket-level calls; each
 * kind of operation lives in its own s3-*.ts module.
 */
import type { Readable } from 'node:stream';
import { CreateBucketCommand, DeleteObjectCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { StorageUnavailableError, isNotFoundError, sdkErrorName, sdkHttpStatus } from './errors';
import type {
  ByteRange,
  GrowingFileOptions,
  ObjectHead,
  ObjectStorage,
  ObjectStream,
  StoredObject,
  UploadOptions,
  UploadResult,
} from './object-storage';
import { DEFAULT_PART_SIZE_BYTES, DEFAULT_PRESIGN_TTL_SECONDS, DEFAULT_QUEUE_SIZE, MIN_PART_SIZE_BYTES, s3ClientConfig, type S3StorageConfig } from './s3-config';
import { uploadGrowingLocalFile } from './s3-growing-upload';
import { deletePrefix, listPrefix } from './s3-prefix';
import { presignGetUrl, presignPutUrl } from './s3-presign';
import { getObjectStream, headObject } from './s3-read';
import { describeError, s3Failure, type S3Target } from './s3-target';
import { uploadBody, uploadLocalFile, type UploadTarget } from './s3-upload';

export {
  DEFAULT_PART_SIZE_BYTES,
  DEFAULT_PRESIGN_TTL_SECONDS,
  DEFAULT_QUEUE_SIZE,
  MAX_PRESIGN_TTL_SECONDS,
  MIN_PART_SIZE_BYTES,
  SINGLE_PUT_MAX_BYTES,
  type S3StorageConfig,
} from './s3-config';
export { describeError } from './s3-target';

/** The one S3 implementation of ObjectStorage (aws-sdk v3 + lib-storage). */
export class S3ObjectStorage implements ObjectStorage {
  readonly bucket: string;
  /** Exposed for the rare operation this class does not wrap; prefer the methods. */
  readonly client: S3Client;
  private readonly presignClient: S3Client;
  private readonly pingTimeoutMs: number;
  private readonly endpointLabel: string;
  /** the client, bucket and part sizes uploads use */
  private readonly target: UploadTarget;
  /** the bucket through the client of the endpoint presigned URLs name */
  private readonly presignTarget: S3Target;

  constructor(config: S3StorageConfig) {
    if (!config.bucket) throw new Error('S3StorageConfig.bucket is required');
    this.bucket = config.bucket;
    const partSize = config.partSizeBytes ?? DEFAULT_PART_SIZE_BYTES;
    if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE_BYTES) {
      throw new Error(`partSizeBytes must be an integer >= ${MIN_PART_SIZE_BYTES}, got ${config.partSizeBytes}`);
    }
    const queueSize = config.queueSize ?? DEFAULT_QUEUE_SIZE;
    if (!Number.isInteger(queueSize) || queueSize < 1) {
      throw new Error(`queueSize must be a positive integer, got ${config.queueSize}`);
    }
    this.pingTimeoutMs = config.pingTimeoutMs ?? 3000;
    this.endpointLabel = config.endpoint ?? `aws:${config.region}`;
    this.client = new S3Client(s3ClientConfig(config, config.endpoint));
    this.presignClient =
      config.publicEndpoint && config.publicEndpoint !== config.endpoint
        ? new S3Client(s3ClientConfig(config, config.publicEndpoint))
        : this.client;
    this.target = { client: this.client, bucket: this.bucket, partSize, queueSize };
    this.presignTarget = { client: this.presignClient, bucket: this.bucket };
  }

  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (!isNotFoundError(err)) throw s3Failure(this.bucket, err, 'HeadBucket');
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const name = sdkErrorName(err);
      // Someone else created it in between: fine.
      if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') return;
      throw s3Failure(this.bucket, err, 'CreateBucket');
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(this.pingTimeoutMs),
      });
    } catch (err) {
      const status = sdkHttpStatus(err);
      const reason =
        status === 404
          ? 'bucket does not exist'
          : status !== undefined
            ? `HTTP ${status} ${sdkErrorName(err) ?? ''}`.trim()
            : describeError(err);
      throw new StorageUnavailableError(
        `object storage ${this.endpointLabel} (bucket ${this.bucket}) is unavailable: ${reason}`,
        this.bucket,
        undefined,
        { cause: err },
      );
    }
  }

  upload(key: string, body: Readable | Buffer, opts: UploadOptions = {}): Promise<UploadResult> {
    return uploadBody(this.target, key, body, opts);
  }

  /** One PUT up to the store's single-object limit, multipart (upload) above it. */
  uploadFile(key: string, path: string, opts: UploadOptions = {}): Promise<UploadResult> {
    return uploadLocalFile(this.target, key, path, opts, (k, b, o) => this.upload(k, b, o));
  }

  /** Uploads a file while another process still writes it (see s3-growing-upload.ts). */
  uploadGrowingFile(key: string, path: string, opts: GrowingFileOptions): Promise<UploadResult> {
    return uploadGrowingLocalFile(this.target, key, path, opts, (k, b, o) => this.upload(k, b, o));
  }

  head(key: string): Promise<ObjectHead | null> {
    return headObject(this.target, key);
  }

  getStream(key: string, range?: ByteRange): Promise<ObjectStream> {
    return getObjectStream(this.target, key, range);
  }

  presignGet(key: string, ttlSeconds = DEFAULT_PRESIGN_TTL_SECONDS): Promise<string> {
    return presignGetUrl(this.presignTarget, key, ttlSeconds);
  }

  /** The uploader must send the same Content-Type header when `contentType` is given (it is signed). */
  presignPut(key: string, ttlSeconds = DEFAULT_PRESIGN_TTL_SECONDS, contentType?: string): Promise<string> {
    return presignPutUrl(this.presignTarget, key, ttlSeconds, contentType);
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFoundError(err)) return;
      throw s3Failure(this.bucket, err, 'DeleteObject', key);
    }
  }

  list(prefix: string): Promise<StoredObject[]> {
    return listPrefix(this.target, prefix);
  }

  deletePrefix(prefix: string): Promise<number> {
    return deletePrefix(this.target, prefix);
  }

  /** Closes the SDK's sockets. */
  destroy(): void {
    this.client.destroy();
    if (this.presignClient !== this.client) this.presignClient.destroy();
  }
}
