/**
 * Resumable uploads as Google/YouTube do them (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * a session is started with the total size, then chunks arrive with `Content-Range: bytes a-b/N`;
 * the answer is 308 with `Range: bytes=0-<last stored>` until the last byte, then 200 with the
 * result. `Content-Range: bytes * /N` (no space) asks where the upload stands. Bytes are written to disk as they
 * arrive, so a dropped connection keeps what was received and the client resumes from there.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { drain, HttpError } from './http';

export const UPLOAD_KINDS = ['video', 'vtt', 'wordByword', 'clip'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
/** Largest upload the sandbox accepts (it is a local test double). */
export const MAX_UPLOAD_BYTES = 20 * 1024 ** 3;

/** What a completed upload answers (and what the webhook events carry). */
export interface UploadAnswer {
  uploadId: string;
  providerVideoId: string | null;
  bytes: number;
  sha256: string;
}

export interface ResumableUpload {
  uploadId: string;
  sessionId: string;
  kind: UploadKind;
  total: number;
  contentType: string;
  /** X-Upload-Name (a clip's title) */
  name: string | null;
  /** X-Upload-Content-Sha256: the completed upload must hash to it */
  expectedSha256: string | null;
  owner: string;
  received: number;
  state: 'active' | 'completed' | 'failed';
  answer: UploadAnswer | null;
  failure: string | null;
  path: string;
  createdAt: string;
}

export type ContentRange =
  | { kind: 'query'; total: number | null }
  | { kind: 'bytes'; first: number; last: number; total: number | null };

/** `bytes a-b/N`, `bytes a-b/*`, `bytes * /N` or `bytes * /*` (without the spaces around '/'); null when malformed. */
export function parseContentRange(header: string | undefined): ContentRange | null {
  const m = /^bytes\s+(?:(\*)|(\d+)-(\d+))\/(\*|\d+)$/.exec(header?.trim() ?? '');
  if (!m) return null;
  const total = m[4] === '*' ? null : Number(m[4]);
  if (m[1]) return { kind: 'query', total };
  const first = Number(m[2]);
  const last = Number(m[3]);
  if (last < first || (total !== null && last >= total)) return null;
  return { kind: 'bytes', first, last, total };
}

/** The 308 `Range` header for `received` bytes (none when nothing is stored, as Google does). */
export function rangeHeader(received: number): Record<string, string> {
  return received > 0 ? { range: `bytes=0-${received - 1}` } : {};
}

export type PutOutcome = { kind: 'incomplete'; received: number } | { kind: 'completed'; answer: UploadAnswer };

/**
 * The sandbox's resumable upload sessions. `complete` is called once per upload with the stored file
 * and its sha256; it files the upload in the library and returns the answer.
 */
export class ResumableUploads {
  private uploads = new Map<string, ResumableUpload>();
  /** one writer per upload at a time */
  private locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dir: string,
    private readonly complete: (u: ResumableUpload, sha256: string) => Promise<UploadAnswer>,
    private readonly failed: (u: ResumableUpload) => void,
  ) {}

  async create(o: Pick<ResumableUpload, 'sessionId' | 'kind' | 'total' | 'contentType' | 'name' | 'expectedSha256' | 'owner'>): Promise<ResumableUpload> {
    const uploadId = `up_${randomUUID()}`;
    const u: ResumableUpload = { ...o, uploadId, received: 0, state: 'active', answer: null, failure: null, path: join(this.dir, uploadId), createdAt: new Date().toISOString() };
    await writeFile(u.path, '');
    this.uploads.set(uploadId, u);
    return u;
  }

  get(uploadId: string): ResumableUpload | undefined {
    return this.uploads.get(uploadId);
  }

  /** A PUT on the session URI: a chunk or a status query. */
  put(u: ResumableUpload, range: ContentRange, body: AsyncIterable<Buffer>): Promise<PutOutcome> {
    const run = (this.locks.get(u.uploadId) ?? Promise.resolve()).catch(() => undefined).then(() => this.receive(u, range, body));
    this.locks.set(u.uploadId, run);
    return run;
  }

  clear(): void {
    this.uploads.clear();
    this.locks.clear();
  }

  private async receive(u: ResumableUpload, range: ContentRange, body: AsyncIterable<Buffer>): Promise<PutOutcome> {
    if (range.total !== null && range.total !== u.total) {
      await drain(body);
      throw new HttpError(400, `Content-Range total ${range.total} differs from the announced size ${u.total}`, 'bad_request');
    }
    if (u.state === 'failed') {
      await drain(body);
      throw new HttpError(400, u.failure ?? 'the upload failed', 'upload_failed');
    }
    if (u.state === 'completed' || range.kind === 'query' || range.first !== u.received) {
      // a chunk that does not start where we are is not taken: the 308 tells the client where to resume
      await drain(body);
      return u.state === 'active' && u.received === u.total ? this.finish(u) : this.outcome(u);
    }
    const expected = range.last - range.first + 1;
    const file = await open(u.path, 'r+');
    try {
      for await (const piece of body) {
        const room = expected - (u.received - range.first);
        if (piece.length > room) {
          if (room > 0) u.received += (await file.write(piece, 0, room, u.received)).bytesWritten;
          throw new HttpError(400, `the body is longer than Content-Range ${range.first}-${range.last} says`, 'bad_request');
        }
        // written before it is counted: what `received` says is on disk
        u.received += (await file.write(piece, 0, piece.length, u.received)).bytesWritten;
      }
    } finally {
      await file.close();
    }
    return u.received === u.total ? this.finish(u) : this.outcome(u);
  }

  private outcome(u: ResumableUpload): PutOutcome {
    return u.state === 'completed' ? { kind: 'completed', answer: u.answer! } : { kind: 'incomplete', received: u.received };
  }

  private async finish(u: ResumableUpload): Promise<PutOutcome> {
    const sha256 = await sha256File(u.path);
    if (u.expectedSha256 && u.expectedSha256.toLowerCase() !== sha256) {
      u.state = 'failed';
      u.failure = `the stored bytes hash to sha256 ${sha256}, not the announced ${u.expectedSha256}`;
      this.failed(u);
      throw new HttpError(400, u.failure, 'checksum_mismatch');
    }
    u.answer = await this.complete(u, sha256);
    u.state = 'completed';
    return { kind: 'completed', answer: u.answer };
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true, recursive: true }).catch(() => undefined);
}
