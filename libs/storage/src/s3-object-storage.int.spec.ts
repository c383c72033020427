import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InvalidRangeError,
  ObjectNotFoundError,
  S3ObjectStorage,
  StorageError,
  StorageUnavailableError,
  UploadAbortedError,
  type LocalS3,
} from '@wordcut/storage';
import { startTestS3, type TestS3 } from '../../../tools/testing/local-s3';

const MiB = 1024 * 1024;

/** Deterministic pseudo-random content: 1 MiB blocks of one random base, each stamped with its index. */
class BlockSource {
  private readonly base = randomBytes(MiB);
  constructor(readonly size: number) {}

  block(i: number): Buffer {
    const b = Buffer.from(this.base);
    b.writeUInt32BE(i, 0);
    b.writeUInt32BE((i ^ 0xdeadbeef) >>> 0, MiB - 4);
    return b;
  }

  /** Bytes [start, end] (inclusive). */
  slice(start: number, end: number): Buffer {
    const out: Buffer[] = [];
    for (let i = Math.floor(start / MiB); i * MiB <= end; i++) out.push(this.block(i));
    const first = Math.floor(start / MiB) * MiB;
    return Buffer.concat(out).subarray(start - first, end - first + 1);
  }

  stream(opts: { delayMs?: number } = {}): Readable {
    const { size } = this;
    let emitted = 0;
    let i = 0;
    const self = this;
    return new Readable({
      highWaterMark: MiB,
      read() {
        if (emitted >= size) {
          this.push(null);
          return;
        }
        const chunk = self.block(i++).subarray(0, Math.min(MiB, size - emitted));
        emitted += chunk.length;
        if (opts.delayMs) setTimeout(() => this.push(chunk), opts.delayMs);
        else this.push(chunk);
      },
    });
  }

  sha256(): string {
    const h = createHash('sha256');
    for (let i = 0; i * MiB < this.size; i++) h.update(this.block(i).subarray(0, Math.min(MiB, this.size - i * MiB)));
    return h.digest('hex');
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

async function sha256Of(body: Readable): Promise<{ hex: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const c of body) {
    h.update(c as Buffer);
    bytes += (c as Buffer).length;
  }
  return { hex: h.digest('hex'), bytes };
}

describe('S3ObjectStorage against s3rver', () => {
  let server: TestS3 | undefined;
  let s3: LocalS3;
  let storage: S3ObjectStorage;

  beforeAll(async () => {
    server = await startTestS3('wordcut-test', { partSizeBytes: 8 * MiB, queueSize: 3 });
    ({ s3, storage } = server);
  });

  afterAll(() => server?.close());

  it('reports an ephemeral port for port 0', () => {
    expect(s3.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s3.endpoint).not.toMatch(/:0$/);
  });

  it('ensureBucket is idempotent and ping succeeds afterwards', async () => {
    await expect(storage.ping()).rejects.toThrow(/bucket does not exist/);
    await storage.ensureBucket();
    await storage.ensureBucket();
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('streams a ~70 MB body as a multipart upload and reads it back exactly', async () => {
    const src = new BlockSource(70 * MiB + 12_345);
    const progress: number[] = [];
    const res = await storage.upload('big/stream.bin', src.stream(), {
      contentType: 'application/octet-stream',
      onProgress: (n) => progress.push(n),
    });
    expect(res).toMatchObject({ key: 'big/stream.bin', sizeBytes: src.size });
    expect(res.etag).toBeTruthy();
    // 9 parts of 8 MiB: several progress notifications, monotonically up to the full size.
    expect(progress.length).toBeGreaterThanOrEqual(9);
    expect(progress.at(-1)).toBe(src.size);

    const head = await storage.head('big/stream.bin');
    expect(head).toMatchObject({ sizeBytes: src.size, contentType: 'application/octet-stream' });

    const full = await storage.getStream('big/stream.bin');
    expect(full.contentLength).toBe(src.size);
    expect(await sha256Of(full.body)).toEqual({ hex: src.sha256(), bytes: src.size });

    // A range that crosses the boundary between part 1 and part 2.
    const start = 8 * MiB - 1000;
    const end = 8 * MiB + 999;
    const ranged = await storage.getStream('big/stream.bin', { start, end });
    expect(ranged.contentLength).toBe(2000);
    expect(ranged.contentRange).toBe(`bytes ${start}-${end}/${src.size}`);
    expect((await readAll(ranged.body)).equals(src.slice(start, end))).toBe(true);
  });

  it('uploads a file while it is written, and stores the finished bytes even where the writer went back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wordcut-growing-'));
    try {
      const path = join(dir, 'out.mp4');
      const size = 30 * MiB + 777;
      const chunk = 1 * MiB;
      const expected = Buffer.alloc(size);
      for (let i = 0; i < size; i++) expected[i] = (i * 31 + 7) & 0xff;
      // the writer: appends 1 MiB every 5 ms, then rewrites its first 8 bytes (a header) and one
      // byte in the middle (already sent by then), as a muxer finishing its file does
      const writer = (async () => {
        const fh = await open(path, 'w');
        for (let at = 0; at < size; at += chunk) {
          await fh.write(expected.subarray(at, Math.min(size, at + chunk)), 0, Math.min(chunk, size - at), at);
          await new Promise((r) => setTimeout(r, 5));
        }
        expected.write('FINISHED', 0);
        expected[12 * MiB] = 0x42;
        await fh.write(expected.subarray(0, 8), 0, 8, 0);
        await fh.write(expected.subarray(12 * MiB, 12 * MiB + 1), 0, 1, 12 * MiB);
        await fh.close();
      })();
      const res = await storage.uploadGrowingFile('growing/out.mp4', path, { finished: writer, contentType: 'video/mp4' });
      expect(res.sizeBytes).toBe(size);
      const stored = await readAll((await storage.getStream('growing/out.mp4')).body);
      expect(stored.equals(expected)).toBe(true);

      // a finished file goes up in one PUT, byte for byte; a cancelled one is refused
      const whole = await storage.uploadFile('growing/whole.mp4', path, { contentType: 'video/mp4' });
      expect(whole.sizeBytes).toBe(size);
      expect((await readAll((await storage.getStream('growing/whole.mp4')).body)).equals(expected)).toBe(true);
      expect((await storage.head('growing/whole.mp4'))?.contentType).toBe('video/mp4');
      const ac = new AbortController();
      ac.abort(new Error('cancelled'));
      await expect(storage.uploadFile('growing/never.mp4', path, { signal: ac.signal })).rejects.toThrow(UploadAbortedError);

      // a small file goes in one put; a writer that fails fails the upload
      await writeFile(join(dir, 'small.bin'), 'tiny');
      await expect(storage.uploadGrowingFile('growing/small.bin', join(dir, 'small.bin'), { finished: Promise.resolve() })).resolves.toMatchObject({ sizeBytes: 4 });
      const failing = Promise.reject(new Error('ffmpeg exited with 1'));
      await expect(storage.uploadGrowingFile('growing/never.bin', join(dir, 'never.bin'), { finished: failing })).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('uploads a Buffer with a content type; ranged reads return exact bytes and Content-Range', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    const res = await storage.upload('small/a.txt', data, { contentType: 'text/plain' });
    expect(res.sizeBytes).toBe(20);
    expect(await storage.head('small/a.txt')).toMatchObject({ sizeBytes: 20, contentType: 'text/plain' });

    const r1 = await storage.getStream('small/a.txt', { start: 2, end: 5 });
    expect((await readAll(r1.body)).toString()).toBe('2345');
    expect(r1.contentRange).toBe('bytes 2-5/20');
    expect(r1.contentLength).toBe(4);

    const r2 = await storage.getStream('small/a.txt', { start: 15 });
    expect((await readAll(r2.body)).toString()).toBe('fghij');
    expect(r2.contentRange).toBe('bytes 15-19/20');

    await expect(storage.getStream('small/a.txt', { start: 50, end: 60 })).rejects.toBeInstanceOf(InvalidRangeError);
    await expect(storage.getStream('small/a.txt', { start: 5, end: 2 })).rejects.toThrow(RangeError);
  });

  it('presigned GET is fetchable with global fetch', async () => {
    const data = randomBytes(64 * 1024);
    await storage.upload('presign/get.bin', data);
    const url = await storage.presignGet('presign/get.bin', 60);
    expect(url).toContain('X-Amz-Signature=');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
  });

  it('presigned PUT stores an object that head() then sees', async () => {
    const url = await storage.presignPut('presign/put.vtt', 60, 'text/vtt');
    const body = 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n';
    const res = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'text/vtt' } });
    expect(res.status).toBe(200);
    expect(await storage.head('presign/put.vtt')).toMatchObject({
      sizeBytes: Buffer.byteLength(body),
      contentType: 'text/vtt',
    });
    expect((await readAll((await storage.getStream('presign/put.vtt')).body)).toString()).toBe(body);
  });

  it('delete and deletePrefix remove objects; missing keys are typed', async () => {
    await Promise.all(
      ['p/1', 'p/2', 'p/sub/3', 'p/sub/4', 'p/5', 'px/keep'].map((k) => storage.upload(k, Buffer.from(k))),
    );
    expect(await storage.deletePrefix('p/')).toBe(5);
    expect(await storage.head('p/1')).toBeNull();
    expect(await storage.head('px/keep')).not.toBeNull();
    expect(await storage.deletePrefix('p/')).toBe(0);
    await expect(storage.deletePrefix('')).rejects.toThrow(/non-empty prefix/);

    await storage.delete('px/keep');
    expect(await storage.head('px/keep')).toBeNull();
    await expect(storage.delete('px/keep')).resolves.toBeUndefined();

    const missing = storage.getStream('no/such/key');
    await expect(missing).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(missing).rejects.toThrow('object not found: s3://wordcut-test/no/such/key');
  });

  it('a delete that empties a folder does not break a put into that folder at the same moment', async () => {
    // s3rver used to remove the emptied directory under a concurrent put, which crashed the process
    for (let round = 0; round < 40; round++) {
      const folder = `race/${round}/exports/`;
      await storage.upload(`${folder}a.vtt`, Buffer.from('a'));
      await Promise.all([storage.delete(`${folder}a.vtt`), storage.upload(`${folder}b.vtt`, Buffer.from(`b${round}`))]);
      expect((await readAll((await storage.getStream(`${folder}b.vtt`)).body)).toString()).toBe(`b${round}`);
      expect(await storage.head(`${folder}a.vtt`)).toBeNull();
    }
  });

  it('an AbortSignal stops an upload with UploadAbortedError', async () => {
    const src = new BlockSource(40 * MiB);
    const ac = new AbortController();
    const stream = src.stream({ delayMs: 20 });
    const p = storage.upload('aborted.bin', stream, { signal: ac.signal });
    setTimeout(() => ac.abort(), 150);
    await expect(p).rejects.toBeInstanceOf(UploadAbortedError);
    expect(stream.destroyed).toBe(true);

    const pre = new AbortController();
    pre.abort();
    await expect(storage.upload('aborted2.bin', Buffer.from('x'), { signal: pre.signal })).rejects.toBeInstanceOf(
      UploadAbortedError,
    );
    expect(await storage.head('aborted2.bin')).toBeNull();
  });

  it('a failing source stream rejects the upload with a StorageError naming the cause', async () => {
    const src = new BlockSource(20 * MiB);
    const stream = src.stream();
    let sent = 0;
    stream.on('data', (c: Buffer) => {
      sent += c.length;
      if (sent >= 10 * MiB) stream.destroy(new Error('client disconnected'));
    });
    stream.pause();
    const err = await storage.upload('broken.bin', stream).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(/^Upload s3:\/\/wordcut-test\/broken.bin failed: .*client disconnected/);
    expect(await storage.head('broken.bin')).toBeNull();
  });

  it('ping fails clearly when the server is stopped', async () => {
    const { s3: other, storage: s, close } = await startTestS3('ping-test');
    try {
      await s.ensureBucket();
      await s.ping();
      await other.close();
      const err = await s.ping().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StorageUnavailableError);
      expect((err as Error).message).toContain(`object storage ${other.endpoint} (bucket ping-test) is unavailable`);
      // The pooled keep-alive socket fails first (ECONNRESET); the SDK's retry then meets ECONNREFUSED.
      expect((err as Error).message).toMatch(/ECONNREFUSED|ECONNRESET/);
    } finally {
      await close();
    }
  });
});
