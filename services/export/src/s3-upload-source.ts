import type { UploadSource } from '@wordcut/provider';
import type { ObjectStorage } from '@wordcut/storage';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * An S3 object as the provider client's upload source. The size comes from a HEAD, the sha256
 * from one streaming pass (never buffered: a main video may be gigabytes), and `open(offset)` is
 * a ranged GET from that byte, so a resumed upload reads only what the provider still lacks.
 */
export async function s3UploadSource(storage: ObjectStorage, key: string, contentType: string): Promise<UploadSource & { sha256: string }> {
  const head = await storage.head(key);
  if (!head) throw new Error(`the export source ${key} is not in storage`);
  const size = head.sizeBytes;
  const sha256 = await sha256Of(storage, key);
  return {
    size,
    contentType,
    sha256,
    open: async (offset: number): Promise<Readable> => {
      if (!Number.isSafeInteger(offset) || offset < 0 || offset > size) throw new RangeError(`offset ${offset} is outside ${key} (${size} bytes)`);
      // a range starting at the end is unsatisfiable for S3 (416): the rest of the object is empty
      if (offset === size) return Readable.from([]);
      return (await storage.getStream(key, offset === 0 ? undefined : { start: offset })).body;
    },
  };
}

/** Hex sha256 of an object, streamed once. */
export async function sha256Of(storage: ObjectStorage, key: string): Promise<string> {
  const { body } = await storage.getStream(key);
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
