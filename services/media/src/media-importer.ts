import { SafeFetcher, type SafeFetcherOptions } from '@wordcut/provider';
import type { ObjectStorage } from '@wordcut/storage';

export interface FetchToStorageOptions {
  /** Refuse bodies larger than this (default: the importer's limit). */
  maxBytes?: number;
  /** Stored with the object (default: what the server said). */
  contentType?: string;
  /** Called with the bytes stored so far and the announced size (null when not announced). */
  onProgress?: (loadedBytes: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
}

/** Copies a remote file into our bucket. */
export interface MediaImporter {
  fetchToStorage(url: string, key: string, o?: FetchToStorageOptions): Promise<{ sizeBytes: number }>;
}

export type SafeImporterOptions = Pick<SafeFetcherOptions, 'allowedHosts' | 'trustedPrivateHosts' | 'maxBytes' | 'timeoutMs'>;

/**
 * The real importer: every URL goes through the SSRF guard (`SafeFetcher`: allow-listed hosts,
 * public addresses only, checked redirects, size limit) and streams straight into the bucket.
 * Refusals throw UnsafeUrlError, failed fetches FetchFailedError (from @wordcut/provider); a body
 * failing mid-stream rejects with its own error, not the storage's.
 */
export class SafeMediaImporter implements MediaImporter {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly options: SafeImporterOptions,
  ) {}

  async fetchToStorage(url: string, key: string, o: FetchToStorageOptions = {}): Promise<{ sizeBytes: number }> {
    const fetcher = new SafeFetcher({ ...this.options, maxBytes: o.maxBytes ?? this.options.maxBytes });
    const res = await fetcher.get(url, { signal: o.signal });
    let bodyError: unknown = null;
    res.body.on('error', (err) => {
      bodyError ??= err;
    });
    try {
      const contentType = o.contentType ?? res.contentType ?? undefined;
      const onProgress = o.onProgress;
      const stored = await this.storage.upload(key, res.body, {
        ...(contentType ? { contentType } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
        ...(onProgress ? { onProgress: (loaded: number) => onProgress(loaded, res.contentLength) } : {}),
      });
      return { sizeBytes: stored.sizeBytes };
    } catch (err) {
      throw bodyError ?? err;
    } finally {
      res.body.destroy();
    }
  }
}
