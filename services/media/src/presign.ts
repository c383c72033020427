import type { ObjectStorage } from '@wordcut/storage';

/** Longest presigned URL S3 accepts (7 days). */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/**
 * A presigned GET for ffmpeg/ffprobe to read an object with, valid for as long as the tool may run
 * (plus a margin: ffmpeg opens new range requests while it reads, e.g. for a moov at the end).
 */
export function presignFor(storage: ObjectStorage, key: string, timeoutMs: number): Promise<string> {
  return storage.presignGet(key, Math.min(MAX_PRESIGN_SECONDS, Math.ceil(timeoutMs / 1000) + 120));
}
