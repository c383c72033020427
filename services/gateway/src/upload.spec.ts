/**
 * Multipart uploads streamed into object storage: what is stored where, and that every refusal
 * (missing, repeated or unknown field, too large, empty, not multipart, interrupted) answers its
 * status and leaves nothing behind. The request is a stream carrying a real multipart body (as
 * fetch encodes FormData); the store is an in-memory ObjectStorage.
 */
import { ErrorCode } from '@wordcut/contracts';
import type { ObjectHead, ObjectStorage, ObjectStream, UploadOptions, UploadResult } from '@wordcut/storage';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { displayName, formatBytes, receiveFiles, receiveSingleFile } from './upload';
import { rejectedWith } from '../../../tools/testing/app-error';

/** Objects in a Map; `upload` reads the stream to its end and stops (rejects) when its signal aborts. */
class MemoryStorage implements ObjectStorage {
  readonly bucket = 'test';
  readonly objects = new Map<string, Buffer>();
  readonly deleted: string[] = [];
  async ensureBucket(): Promise<void> {}
  async ping(): Promise<void> {}
  async upload(key: string, body: Readable | Buffer, opts: UploadOptions = {}): Promise<UploadResult> {
    const data = Buffer.isBuffer(body)
      ? body
      : await new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          opts.signal?.addEventListener('abort', () => reject(new Error('upload aborted')));
          body.on('data', (c: Buffer) => chunks.push(c));
          body.on('end', () => resolve(Buffer.concat(chunks)));
          body.on('error', reject);
        });
    if (opts.signal?.aborted) throw new Error('upload aborted');
    this.objects.set(key, data);
    return { key, sizeBytes: data.length };
  }
  async uploadFile(): Promise<UploadResult> {
    throw new Error('not used by the upload path');
  }
  async uploadGrowingFile(): Promise<UploadResult> {
    throw new Error('not used by the upload path');
  }
  async head(key: string): Promise<ObjectHead | null> {
    const o = this.objects.get(key);
    return o ? { sizeBytes: o.length } : null;
  }
  async getStream(key: string): Promise<ObjectStream> {
    const o = this.objects.get(key)!;
    return { body: Readable.from([o]), contentLength: o.length };
  }
  async presignGet(key: string): Promise<string> {
    return `memory://${key}`;
  }
  async presignPut(key: string): Promise<string> {
    return `memory://${key}`;
  }
  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.objects.delete(key);
  }
  async list(prefix: string): Promise<Array<{ key: string; sizeBytes: number }>> {
    return [...this.objects.entries()].filter(([k]) => k.startsWith(prefix)).map(([key, body]) => ({ key, sizeBytes: body.length }));
  }
  async deletePrefix(prefix: string): Promise<number> {
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix));
    keys.forEach((k) => this.objects.delete(k));
    return keys.length;
  }
}

type Part = { field: string; content: string | Buffer; filename?: string; type?: string } | { field: string; text: string };

/** The bytes and content type fetch sends for a form with these parts. */
async function multipart(parts: Part[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const p of parts) {
    if ('text' in p) form.append(p.field, p.text);
    else form.append(p.field, new Blob([typeof p.content === 'string' ? p.content : new Uint8Array(p.content)], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'file.bin');
  }
  const r = new Request('http://gateway/upload', { method: 'POST', body: form });
  return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type')! };
}

/** A request stream with `headers`; the body arrives in small chunks, as from a socket. */
function requestOf(body: Buffer, contentType: string | undefined): IncomingMessage & PassThrough {
  const req = new PassThrough() as PassThrough & IncomingMessage;
  (req as { headers: Record<string, string> }).headers = contentType ? { 'content-type': contentType, 'content-length': String(body.length) } : {};
  setImmediate(() => {
    for (let i = 0; i < body.length; i += 64) req.write(body.subarray(i, i + 64));
    req.end();
  });
  return req;
}

async function post(parts: Part[]) {
  const { body, contentType } = await multipart(parts);
  return requestOf(body, contentType);
}

const specs = {
  video: { key: 'videos/v1/original/o1.mp4', maxBytes: 1000, label: 'video' },
  vtt: { key: 'videos/v1/original/o1.vtt', maxBytes: 100, label: 'subtitle file' },
};

describe('displayName', () => {
  it("keeps only the file's base name, without control or reserved characters, whitespace collapsed", () => {
    expect(displayName('C:\\Users\\me\\Videos\\talk.mp4')).toBe('talk.mp4');
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('my\u0000 <talk>: "final"?.mp4')).toBe('my talk final.mp4');
    expect(displayName('tab\there\u007f.mp4')).toBe('tabhere.mp4');
    expect(displayName('  spaced    out  .mov ')).toBe('spaced out .mov');
  });

  it('answers "untitled" for a missing or empty name, and at most 200 characters', () => {
    expect(displayName(undefined)).toBe('untitled');
    expect(displayName('')).toBe('untitled');
    expect(displayName('dir/')).toBe('untitled');
    expect(displayName('<>|')).toBe('untitled');
    expect(displayName(`${'a'.repeat(300)}.mp4`)).toBe('a'.repeat(200));
  });
});

describe('formatBytes', () => {
  it('uses decimal units with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.1 GB');
    expect(formatBytes(5e15)).toBe('5000 TB');
  });
});

describe('receiveSingleFile', () => {
  it('stores the file under the given key and describes it', async () => {
    const storage = new MemoryStorage();
    const req = await post([{ field: 'video', content: 'x'.repeat(300), filename: 'dir/My Talk.mp4', type: 'video/mp4' }]);
    const file = await receiveSingleFile(req, storage, { field: 'video', key: 'k/video.mp4', maxBytes: 1000 });
    expect(file).toEqual({ key: 'k/video.mp4', sizeBytes: 300, originalName: 'My Talk.mp4', declaredType: 'video/mp4' });
    expect(storage.objects.get('k/video.mp4')?.toString()).toBe('x'.repeat(300));
  });

  it('ignores text fields beside the file', async () => {
    const storage = new MemoryStorage();
    const req = await post([
      { field: 'title', text: 'hello' },
      { field: 'video', content: 'abc' },
    ]);
    await expect(receiveSingleFile(req, storage, { field: 'video', key: 'k', maxBytes: 10 })).resolves.toMatchObject({ sizeBytes: 3 });
  });

  it('answers 400 naming the field when the file is missing', async () => {
    const e = await rejectedWith(receiveSingleFile(await post([{ field: 'title', text: 'x' }]), new MemoryStorage(), { field: 'video', key: 'k', maxBytes: 10 }));
    expect(e.statusCode).toBe(400);
    expect(e.code).toBe(ErrorCode.ValidationFailed);
    expect(e.message).toBe("Attach a file in the form field 'video'.");
  });

  it('answers 415 when the body is not multipart', async () => {
    const e = await rejectedWith(receiveSingleFile(requestOf(Buffer.from('{"a":1}'), 'application/json'), new MemoryStorage(), { field: 'video', key: 'k', maxBytes: 10 }));
    expect(e.statusCode).toBe(415);
    expect(e.code).toBe(ErrorCode.UnsupportedMedia);
    expect((await rejectedWith(receiveSingleFile(requestOf(Buffer.from('x'), undefined), new MemoryStorage(), { field: 'video', key: 'k', maxBytes: 10 }))).statusCode).toBe(415);
  });

  it('answers 413 past the limit, naming the limit, and removes the partial object', async () => {
    const storage = new MemoryStorage();
    const req = await post([{ field: 'video', content: Buffer.alloc(5000, 1) }]);
    const e = await rejectedWith(receiveSingleFile(req, storage, { field: 'video', key: 'k/big.mp4', maxBytes: 1000 }));
    expect(e.statusCode).toBe(413);
    expect(e.code).toBe(ErrorCode.PayloadTooLarge);
    expect(e.message).toBe('The file is larger than the limit of 1 KB.');
    expect(storage.objects.size).toBe(0);
    expect(storage.deleted).toContain('k/big.mp4');
  });

  it('accepts a file of exactly the limit (413 is for larger ones only)', async () => {
    const storage = new MemoryStorage();
    const req = await post([{ field: 'video', content: Buffer.alloc(1000, 1) }]);
    await expect(receiveSingleFile(req, storage, { field: 'video', key: 'k', maxBytes: 1000 })).resolves.toMatchObject({ sizeBytes: 1000 });
    const oneMore = await post([{ field: 'video', content: Buffer.alloc(1001, 1) }]);
    expect((await rejectedWith(receiveSingleFile(oneMore, new MemoryStorage(), { field: 'video', key: 'k', maxBytes: 1000 }))).statusCode).toBe(413);
  });

  it('answers 400 for an empty file and removes it', async () => {
    const storage = new MemoryStorage();
    const e = await rejectedWith(receiveSingleFile(await post([{ field: 'video', content: '' }]), storage, { field: 'video', key: 'k/empty', maxBytes: 10 }));
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe('The file is empty.');
    expect(storage.objects.has('k/empty')).toBe(false);
  });

  it('answers 400 for a repeated or an unknown file field, leaving nothing stored', async () => {
    const storage = new MemoryStorage();
    const twice = await post([
      { field: 'video', content: 'one' },
      { field: 'video', content: 'two' },
    ]);
    const e = await rejectedWith(receiveSingleFile(twice, storage, { field: 'video', key: 'k', maxBytes: 10 }));
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe("Send exactly one file in each of the form fields 'video'.");
    expect(storage.objects.size).toBe(0);
    const unknown = await rejectedWith(receiveSingleFile(await post([{ field: 'other', content: 'x' }]), storage, { field: 'video', key: 'k', maxBytes: 10 }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.message).toBe("Send exactly one file in each of the form fields 'video'.");
  });

  it('answers 400 when the client goes away mid-upload, leaving nothing stored', async () => {
    const storage = new MemoryStorage();
    const { body, contentType } = await multipart([{ field: 'video', content: Buffer.alloc(800, 1) }]);
    const req = new PassThrough() as PassThrough & IncomingMessage;
    (req as { headers: Record<string, string> }).headers = { 'content-type': contentType };
    const received = receiveSingleFile(req, storage, { field: 'video', key: 'k/cut', maxBytes: 1000 });
    req.write(body.subarray(0, 400));
    await new Promise((r) => setImmediate(r));
    req.emit('aborted');
    const e = await rejectedWith(received);
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe('The upload was interrupted.');
    expect(storage.objects.size).toBe(0);
  });
});

describe('receiveFiles (the legacy form: video and subtitles)', () => {
  it('stores both files under their own keys', async () => {
    const storage = new MemoryStorage();
    const req = await post([
      { field: 'video', content: 'v'.repeat(500), filename: 'talk.mp4', type: 'video/mp4' },
      { field: 'vtt', content: 'WEBVTT\n', filename: 'talk.vtt', type: 'text/vtt' },
    ]);
    const files = await receiveFiles(req, storage, specs);
    expect(files).toEqual({
      video: { key: specs.video.key, sizeBytes: 500, originalName: 'talk.mp4', declaredType: 'video/mp4' },
      vtt: { key: specs.vtt.key, sizeBytes: 7, originalName: 'talk.vtt', declaredType: 'text/vtt' },
    });
    expect([...storage.objects.keys()].sort()).toEqual([specs.video.key, specs.vtt.key].sort());
  });

  /** The refusal of a form of these parts, and how many objects it left in storage. */
  async function refusalOf(parts: Part[]) {
    const storage = new MemoryStorage();
    const e = await rejectedWith(receiveFiles(await post(parts), storage, specs));
    return { status: e.statusCode, message: e.message, storedObjects: storage.objects.size };
  }

  it('names the missing field, and removes the file that did arrive', async () => {
    expect(await refusalOf([{ field: 'video', content: 'v'.repeat(10) }])).toEqual({
      status: 400,
      message: "Attach both files: form fields 'video' and 'vtt' (missing: vtt).",
      storedObjects: 0,
    });
  });

  it('holds each file to its own limit (the label names it), and removes the other file', async () => {
    const parts = [
      { field: 'video', content: 'v'.repeat(500) },
      { field: 'vtt', content: 'x'.repeat(101) },
    ];
    expect(await refusalOf(parts)).toEqual({ status: 413, message: 'The subtitle file is larger than the limit of 100 bytes.', storedObjects: 0 });
  });

  it('refuses a third file', async () => {
    const parts = [
      { field: 'video', content: 'v' },
      { field: 'vtt', content: 'w' },
      { field: 'extra', content: 'x' },
    ];
    expect(await refusalOf(parts)).toEqual({ status: 400, message: "Send exactly one file in each of the form fields 'video' and 'vtt'.", storedObjects: 0 });
  });
});
