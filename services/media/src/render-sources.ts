import { DiskCache, readRenderMediaInfo, type RenderMediaInfo } from '@wordcut/ffmpeg';
import { ObjectNotFoundError, type ObjectStorage } from '@wordcut/storage';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A render's original, on local disk, with what identifies its bytes. */
export interface LocalSource {
  path: string;
  /** storage key, ETag and size: changes whenever the object's bytes do */
  sourceId: string;
  info: RenderMediaInfo;
  /** whether the original came from the local cache (nothing downloaded) */
  cached: boolean;
}

/**
 * The originals renders read, and their media info, kept in the workers' local cache: a video
 * edited again renders without downloading its original or reading its packets again. An entry
 * is keyed by the object's key, ETag and size, so a replaced object is a new entry.
 */
export class RenderSources {
  /** Originals this process is putting in the cache now: a render of one waits and takes it from there. */
  private readonly filling = new Map<string, Promise<unknown>>();

  constructor(
    private readonly storage: ObjectStorage,
    readonly cache: DiskCache | null,
  ) {}

  async fetch(key: string, workDir: string, signal: AbortSignal): Promise<LocalSource> {
    const head = await this.storage.head(key);
    if (!head) throw new ObjectNotFoundError(this.storage.bucket, key);
    const sourceId = `${key}|${head.etag ?? ''}|${head.sizeBytes}`;
    const prior = this.filling.get(sourceId);
    if (prior) await untilSettledOrAborted(prior, signal);
    const load = this.load(key, sourceId, workDir, signal);
    if (this.cache && !prior) {
      this.filling.set(sourceId, load);
      void load.catch(() => undefined).finally(() => this.filling.delete(sourceId));
    }
    return load;
  }

  private async load(key: string, sourceId: string, workDir: string, signal: AbortSignal): Promise<LocalSource> {
    const path = join(workDir, 'source');
    let cached = (await this.cache?.take(`${sourceId}|original`, path)) ?? false;
    if (!cached) {
      const obj = await this.storage.getStream(key);
      await pipeline(obj.body as Readable, createWriteStream(path), { signal });
      await this.cache?.put(`${sourceId}|original`, path);
    }
    const infoPath = join(workDir, 'source-info.json');
    let info: RenderMediaInfo | null = null;
    if (await this.cache?.take(`${sourceId}|render-info-v2`, infoPath)) {
      info = JSON.parse(await readFile(infoPath, 'utf8')) as RenderMediaInfo;
    } else {
      cached = false;
      info = await readRenderMediaInfo(path, { signal });
      if (this.cache) {
        await writeFile(infoPath, JSON.stringify(info));
        await this.cache.put(`${sourceId}|render-info-v2`, infoPath);
      }
    }
    return { path, sourceId, info, cached };
  }
}

/** Waits for `p` to settle (either way), or throws the signal's reason when it aborts first. */
async function untilSettledOrAborted(p: Promise<unknown>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([p.then(() => undefined, () => undefined), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
