import { mkdir, unlink } from 'node:fs/promises';
import type { S3StorageConfig } from './s3-object-storage';

export interface LocalS3Options {
  /** 0 = ephemeral port (the real one is in the returned endpoint). */
  port: number;
  /** Default 127.0.0.1. */
  address?: string;
  /** Where objects are kept (created if missing). */
  directory: string;
  /** Suppress s3rver's per-request log. Default true. */
  silent?: boolean;
  /** Buckets to create at start, with a permissive CORS configuration (browser PUT/GET via presigned URLs). */
  buckets?: string[];
}

export interface LocalS3 {
  endpoint: string;
  accessKeyId: 'S3RVER';
  secretAccessKey: 'S3RVER';
  /** The settings of an S3ObjectStorage on `bucket` of this server (path-style addressing). */
  storageConfig(bucket: string): S3StorageConfig;
  close(): Promise<void>;
}

/** CORS rules applied to configured buckets: any origin may GET/HEAD/PUT, ETag and ranges readable. */
const CORS_XML = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <ExposeHeader>Content-Range</ExposeHeader>
    <ExposeHeader>Accept-Ranges</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * Starts an in-process S3 server (s3rver) for local runs and tests. Not for deployments (MinIO there).
 * s3rver is loaded lazily so that services importing @wordcut/storage never load it in production.
 */
export async function startLocalS3(options: LocalS3Options): Promise<LocalS3> {
  const { port, address = '127.0.0.1', directory, silent = true, buckets = [] } = options;
  await mkdir(directory, { recursive: true });
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    port,
    address,
    directory,
    silent,
    configureBuckets: buckets.map((name) => ({ name, configs: [CORS_XML] })),
  });
  keepDirectoriesOnDelete(server.store);
  const info = await server.run();
  const host = address.includes(':') ? `[${address}]` : address;
  let closed = false;
  const endpoint = `http://${host}:${info.port}`;
  return {
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    storageConfig: (bucket) => ({ endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', bucket, forcePathStyle: true }),
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
}

/**
 * s3rver removes a key's directory when a delete leaves it empty; a put into that directory at the
 * same moment then opens its file in a directory that is gone, on a stream with no error handler,
 * and the process hosting s3rver crashes (ENOENT). S3 has no directories: a delete removes only the
 * object's own files (what s3rver 3.x's FilesystemStore.deleteObject does before its clean-up).
 */
function keepDirectoriesOnDelete(store: { getResourcePath(bucket: string, key: string, resource: string): string; deleteObject(bucket: string, key: string): Promise<void> }): void {
  store.deleteObject = async (bucket, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(store.getResourcePath(bucket, key, resource)).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        }),
      ),
    );
  };
}
