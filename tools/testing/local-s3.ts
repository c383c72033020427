import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3ObjectStorage, startLocalS3, type LocalS3, type S3StorageConfig } from '@wordcut/storage';

export interface TestS3 {
  s3: LocalS3;
  /** a storage on the test bucket (not created yet: `ensureBucket()` does) */
  storage: S3ObjectStorage;
  /** destroys the storage, stops the server and removes its folder */
  close(): Promise<void>;
}

/** A local S3 server on an ephemeral port, keeping its objects in a new temporary folder, and a storage on `bucket`. */
export async function startTestS3(bucket: string, storageOptions: Partial<S3StorageConfig> = {}): Promise<TestS3> {
  const dir = await mkdtemp(join(tmpdir(), 'wordcut-s3-'));
  const s3 = await startLocalS3({ port: 0, directory: dir });
  const storage = new S3ObjectStorage({ ...s3.storageConfig(bucket), ...storageOptions });
  return {
    s3,
    storage,
    close: async () => {
      storage.destroy();
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
