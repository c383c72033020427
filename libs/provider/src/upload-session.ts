/**
 * A resumable upload session: started (or picked up again from a kept session URI), sent chunk by
 * chunk, and after any interruption resumed at exactly the byte the provider says it holds.
 */
import type { Readable } from 'node:stream';
import { tap, type HttpExchange } from './http-exchange';
import { answerError, badResponse, ProviderError, type Answer } from './provider-error';
import type { RetryLoop, RetryState } from './retry-loop';

export interface UploadSource {
  size: number;
  contentType: string;
  /** hex sha256 of the whole source, checked against what the provider reports it stored */
  sha256?: string;
  /** a stream of the source from byte `offset` to its end */
  open(offset: number): Promise<NodeJS.ReadableStream | Readable>;
}

export interface UploadResult {
  uploadId: string;
  providerVideoId: string | null;
  bytes: number;
  sha256: string | null;
  /** 1 + the number of retries the upload needed */
  attempts: number;
  /** the offsets the upload resumed from after each interruption */
  resumedFrom: number[];
}

export interface UploadOptions {
  token: string;
  url: string;
  source: UploadSource;
  /** a clip's title (X-Upload-Name) */
  name?: string;
  signal?: AbortSignal;
  onProgress?(sentBytes: number): void;
  /**
   * The session URI of an upload of these same bytes that an earlier run started (e.g. before a
   * restart): the provider is asked how much it holds and the upload continues from there. A
   * session the provider no longer knows (404, 410) is replaced by a fresh one.
   */
  resumeUri?: string;
  /** Called with a newly started session URI, and awaited before any byte is sent (to persist it). */
  onSession?(uri: string): void | Promise<void>;
}

/** The next byte the provider expects, from a 308's `Range: bytes=0-<last>` (no header: 0). */
export function nextOffsetFromRange(range: string | null | undefined): number {
  const m = /^bytes=0-(\d+)$/.exec(range?.trim() ?? '');
  return m ? Number(m[1]) + 1 : 0;
}

/** Reads a source from any offset, in pieces of exact lengths; re-opens only when asked for another offset. */
class SourceCursor {
  private iterator: AsyncIterator<Buffer | string> | null = null;
  private stream: (NodeJS.ReadableStream | Readable) | null = null;
  private position = -1;
  private leftover: Buffer | null = null;

  constructor(private readonly source: UploadSource) {}

  async *take(offset: number, length: number): AsyncGenerator<Buffer> {
    if (offset !== this.position) await this.reopen(offset);
    for (let remaining = length; remaining > 0; ) {
      let piece = this.leftover ?? (await this.next());
      this.leftover = null;
      if (piece.length > remaining) [piece, this.leftover] = [piece.subarray(0, remaining), piece.subarray(remaining)];
      remaining -= piece.length;
      this.position += piece.length;
      yield piece;
    }
  }

  close(): void {
    (this.stream as Readable | null)?.destroy?.();
    this.stream = this.iterator = this.leftover = null;
    this.position = -1;
  }

  private async reopen(offset: number): Promise<void> {
    this.close();
    this.stream = await this.source.open(offset);
    this.iterator = (this.stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    this.position = offset;
  }

  private async next(): Promise<Buffer> {
    const r = await this.iterator!.next();
    if (r.done) throw new ProviderError({ message: `The upload source ended at byte ${this.position} of ${this.source.size}`, status: null, code: 'source_truncated', transient: false });
    return typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
  }
}

/** Uploads with the resumable protocol: `chunkSize` bytes per request, through `http`, retried by `retry`. */
export class UploadSession {
  constructor(
    private readonly http: HttpExchange,
    private readonly retry: RetryLoop,
    private readonly chunkSize: number,
  ) {}

  async upload(o: UploadOptions): Promise<UploadResult> {
    const { source, signal } = o;
    if (!Number.isSafeInteger(source.size) || source.size < 0) throw new Error('upload: source.size must be a non-negative integer');
    const state: RetryState = { attempts: 1, failures: 0 };
    const resumedFrom: number[] = [];
    const held = o.resumeUri === undefined ? null : await this.held(o.resumeUri, source.size, state, signal);
    if (held && 'done' in held) return this.finish(held.done, source, state, resumedFrom);
    let sessionUri: string;
    let offset = 0;
    if (held) {
      sessionUri = o.resumeUri!;
      offset = held.received;
      resumedFrom.push(offset);
      o.onProgress?.(offset);
    } else {
      sessionUri = await this.retry.retrying(state, signal, () => this.initiate(o));
      await o.onSession?.(sessionUri);
    }
    const cursor = new SourceCursor(source);
    try {
      for (let interrupted = false; ; ) {
        try {
          const step = interrupted
            ? await this.retry.retrying(state, signal, () => this.put(sessionUri, source.size, offset, null, signal))
            : await this.put(sessionUri, source.size, offset, cursor, signal, o.onProgress);
          if ('done' in step) return this.finish(step.done, source, state, resumedFrom);
          if (interrupted) resumedFrom.push(step.received);
          else if (step.received <= offset) throw new ProviderError({ message: `Uploading made no progress: the provider still holds ${step.received} bytes`, status: 308, code: 'no_progress', transient: true });
          if (step.received > offset) state.failures = 0;
          offset = step.received;
          o.onProgress?.(offset);
          interrupted = false;
        } catch (e) {
          if (!(e instanceof ProviderError) || !e.transient || interrupted) throw e;
          await this.retry.pause(e, state, signal);
          interrupted = true;
        }
      }
    } finally {
      cursor.close();
    }
  }

  /**
   * Where an earlier upload session stands (the status query); null when the provider no longer
   * knows it (404, 410: expired or never completed), so a fresh session is started instead.
   */
  private async held(uri: string, total: number, state: RetryState, signal?: AbortSignal): Promise<{ received: number } | { done: Answer } | null> {
    try {
      return await this.retry.retrying(state, signal, () => this.put(uri, total, 0, null, signal));
    } catch (e) {
      if (e instanceof ProviderError && (e.status === 404 || e.status === 410)) return null;
      throw e;
    }
  }

  private async initiate(o: UploadOptions): Promise<string> {
    const url = new URL(o.url);
    url.searchParams.set('uploadType', 'resumable');
    const headers: Record<string, string> = {
      authorization: `Bearer ${o.token}`,
      'x-upload-content-length': String(o.source.size),
      'x-upload-content-type': o.source.contentType,
      'content-length': '0',
    };
    if (o.name !== undefined) headers['x-upload-name'] = encodeURIComponent(o.name);
    if (o.source.sha256) headers['x-upload-content-sha256'] = o.source.sha256;
    const a = await this.http.send(url.href, 'POST', headers, null, o.signal);
    if (a.status < 200 || a.status > 299) throw answerError('Starting the upload', a);
    const location = a.headers.get('location');
    if (!location) throw badResponse('Starting the upload', 'has no Location header');
    return new URL(location, url).href;
  }

  /** One chunk from `offset` (cursor given), or a status query (cursor null). */
  private async put(uri: string, total: number, offset: number, cursor: SourceCursor | null, signal?: AbortSignal, onProgress?: (n: number) => void): Promise<{ received: number } | { done: Answer }> {
    const length = cursor && total > 0 ? Math.min(this.chunkSize, total - offset) : 0;
    const range = length > 0 ? `bytes ${offset}-${offset + length - 1}/${total}` : `bytes */${total}`;
    let sent = offset;
    const body = length > 0 ? tap(cursor!.take(offset, length), (n) => onProgress?.((sent += n))) : null;
    const a = await this.http.send(uri, 'PUT', { 'content-range': range, 'content-length': String(length) }, body, signal);
    if (a.status === 200 || a.status === 201) return { done: a };
    if (a.status === 308) return { received: nextOffsetFromRange(a.headers.get('range')) };
    throw answerError('Uploading', a);
  }

  private finish(a: Answer, source: UploadSource, state: RetryState, resumedFrom: number[]): UploadResult {
    const what = 'Uploading';
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(a.text) as Record<string, unknown>;
    } catch {
      throw badResponse(what, 'is not JSON');
    }
    if (typeof r['uploadId'] !== 'string') throw badResponse(what, 'has no uploadId');
    const bytes = typeof r['bytes'] === 'number' ? r['bytes'] : source.size;
    const sha256 = typeof r['sha256'] === 'string' ? r['sha256'].toLowerCase() : null;
    if (bytes !== source.size) {
      throw new ProviderError({ message: `The provider stored ${bytes} bytes of ${source.size}; the upload must be restarted`, status: a.status, code: 'size_mismatch', transient: false });
    }
    if (source.sha256 && sha256 && sha256 !== source.sha256.toLowerCase()) {
      throw new ProviderError({ message: `The provider stored different bytes than were sent (sha256 ${sha256.slice(0, 12)}… instead of ${source.sha256.slice(0, 12)}…); the upload must be restarted`, status: a.status, code: 'checksum_mismatch', transient: false });
    }
    const providerVideoId = typeof r['providerVideoId'] === 'string' ? r['providerVideoId'] : null;
    return { uploadId: r['uploadId'], providerVideoId, bytes, sha256, attempts: state.attempts, resumedFrom };
  }
}
