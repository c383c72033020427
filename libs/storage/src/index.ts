export * from './object-storage';
export * from './errors';
export {
  S3ObjectStorage,
  describeError,
  DEFAULT_PART_SIZE_BYTES,
  DEFAULT_PRESIGN_TTL_SECONDS,
  DEFAULT_QUEUE_SIZE,
  MAX_PRESIGN_TTL_SECONDS,
  MIN_PART_SIZE_BYTES,
  type S3StorageConfig,
} from './s3-object-storage';
export { startLocalS3, type LocalS3, type LocalS3Options } from './local-s3';
