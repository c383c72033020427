import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  InvalidRangeError,
  ObjectNotFoundError,
  S3ObjectStorage,
  StorageError,
  describeError,
  formatRangeHeader,
  isNotFoundError,
  parseContentRange,
  type S3StorageConfig,
} from '@wordcut/storage';

interface SentRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: string;
}

/** An in-process HTTP handler for the SDK: records requests, answers from a script. */
function fakeHandler(answer: (req: SentRequest) => { status: number; body?: string; headers?: Record<string, string> }) {
  const sent: SentRequest[] = [];
  const handler = {
    metadata: { handlerProtocol: 'http/1.1' },
    async handle(request: {
      method: string;
      path: string;
      query: Record<string, unknown>;
      headers: Record<string, string>;
      body?: unknown;
    }) {
      let body = '';
      if (typeof request.body === 'string') body = request.body;
      else if (request.body instanceof Uint8Array) body = Buffer.from(request.body).toString();
      else if (request.body instanceof Readable) {
        for await (const c of request.body) body += Buffer.from(c as Buffer).toString();
      }
      const req: SentRequest = { method: request.method, path: request.path, query: request.query, headers: request.headers, body };
      sent.push(req);
      const a = answer(req);
      return {
        response: {
          statusCode: a.status,
          reason: '',
          headers: { 'content-type': 'application/xml', ...(a.headers ?? {}) },
          body: Readable.from([Buffer.from(a.body ?? '')]),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
    destroy() {},
  };
  return { handler, sent };
}

const base: S3StorageConfig = {
  endpoint: 'http://minio:9000',
  region: 'us-east-1',
  accessKeyId: 'AK',
  secretAccessKey: 'SK',
  bucket: 'media',
  forcePathStyle: true,
  maxAttempts: 1,
};

describe('range helpers', () => {
  it('formats Range headers and validates them', () => {
    expect(formatRangeHeader({ start: 0 })).toBe('bytes=0-');
    expect(formatRangeHeader({ start: 10, end: 19 })).toBe('bytes=10-19');
    expect(formatRangeHeader({ start: 5, end: 5 })).toBe('bytes=5-5');
    expect(() => formatRangeHeader({ start: -1 })).toThrow(RangeError);
    expect(() => formatRangeHeader({ start: 1.5 })).toThrow(RangeError);
    expect(() => formatRangeHeader({ start: 9, end: 3 })).toThrow(RangeError);
  });

  it('parses Content-Range', () => {
    expect(parseContentRange('bytes 2-5/20')).toEqual({ start: 2, end: 5, total: 20 });
    expect(parseContentRange('bytes 0-0/*')).toEqual({ start: 0, end: 0, total: null });
    expect(parseContentRange(undefined)).toBeNull();
    expect(parseContentRange('items 1-2/3')).toBeNull();
  });
});

describe('error helpers', () => {
  it('recognises not-found SDK errors', () => {
    expect(isNotFoundError({ name: 'NoSuchKey' })).toBe(true);
    expect(isNotFoundError({ name: 'NotFound', $metadata: { httpStatusCode: 404 } })).toBe(true);
    expect(isNotFoundError({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })).toBe(false);
    expect(isNotFoundError(null)).toBe(false);
  });

  it('describes nested network errors on one line', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeError(new AggregateError([inner], ''))).toContain('ECONNREFUSED 127.0.0.1:1');
    expect(describeError(new Error('outer', { cause: inner }))).toBe('outer <- connect ECONNREFUSED 127.0.0.1:1');
    expect(describeError('plain')).toBe('plain');
  });

  it('ObjectNotFoundError is a StorageError carrying bucket and key', () => {
    const e = new ObjectNotFoundError('b', 'k/1');
    expect(e).toBeInstanceOf(StorageError);
    expect(e).toMatchObject({ name: 'ObjectNotFoundError', bucket: 'b', key: 'k/1' });
    expect(e.message).toBe('object not found: s3://b/k/1');
  });
});

describe('S3ObjectStorage (no network)', () => {
  it('validates part size, queue size and bucket', () => {
    expect(() => new S3ObjectStorage({ ...base, partSizeBytes: 1024 })).toThrow(/partSizeBytes/);
    expect(() => new S3ObjectStorage({ ...base, queueSize: 0 })).toThrow(/queueSize/);
    expect(() => new S3ObjectStorage({ ...base, bucket: '' })).toThrow(/bucket/);
  });

  it('presigns path-style URLs with the default TTL, on the public endpoint when configured', async () => {
    const s = new S3ObjectStorage(base);
    const get = new URL(await s.presignGet('videos/a b.mp4'));
    expect(get.origin).toBe('http://minio:9000');
    expect(get.pathname).toBe('/media/videos/a%20b.mp4');
    expect(get.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(get.searchParams.get('X-Amz-Credential')).toMatch(/^AK\//);

    const pub = new S3ObjectStorage({ ...base, publicEndpoint: 'https://media.example.com' });
    const put = new URL(await pub.presignPut('up/x.mp4', 60, 'video/mp4'));
    expect(put.origin).toBe('https://media.example.com');
    expect(put.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(put.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');
    // No flexible-checksum parameters (they would pin the checksum of an empty body).
    expect([...put.searchParams.keys()].some((k) => k.toLowerCase().includes('checksum'))).toBe(false);

    await expect(s.presignGet('k', 0)).rejects.toThrow(RangeError);
    await expect(s.presignGet('k', 8 * 24 * 3600)).rejects.toThrow(RangeError);
  });

  it('sends plain (not aws-chunked) PUT bodies without checksum headers', async () => {
    const { handler, sent } = fakeHandler(() => ({ status: 200, headers: { etag: '"abc"' } }));
    const s = new S3ObjectStorage({ ...base, requestHandler: handler });
    const r = await s.upload('k/small.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(r).toEqual({ key: 'k/small.txt', sizeBytes: 5, etag: 'abc' });
    expect(sent).toHaveLength(1);
    const put = sent[0]!;
    expect(put.method).toBe('PUT');
    expect(put.path).toBe('/media/k/small.txt');
    expect(put.body).toBe('hello');
    expect(put.headers['content-encoding']).toBeUndefined();
    expect(Object.keys(put.headers).filter((h) => h.startsWith('x-amz-checksum'))).toEqual([]);
  });

  it('deletePrefix lists then batch-deletes with a Content-MD5 header', async () => {
    const { handler, sent } = fakeHandler((req) => {
      if (req.method === 'GET') {
        return {
          status: 200,
          body:
            '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>media</Name><Prefix>v/1/</Prefix>' +
            '<KeyCount>2</KeyCount><IsTruncated>false</IsTruncated>' +
            '<Contents><Key>v/1/a</Key><Size>1</Size></Contents><Contents><Key>v/1/b</Key><Size>1</Size></Contents>' +
            '</ListBucketResult>',
        };
      }
      return {
        status: 200,
        body: '<?xml version="1.0" encoding="UTF-8"?><DeleteResult><Deleted><Key>v/1/a</Key></Deleted><Deleted><Key>v/1/b</Key></Deleted></DeleteResult>',
      };
    });
    const s = new S3ObjectStorage({ ...base, requestHandler: handler });
    expect(await s.deletePrefix('v/1/')).toBe(2);
    const del = sent.find((r) => r.method === 'POST')!;
    expect(del.query).toHaveProperty('delete');
    expect(del.body).toContain('<Key>v/1/a</Key>');
    expect(del.headers['content-md5']).toBe(createHash('md5').update(del.body).digest('base64'));
  });

  it('maps 404 to ObjectNotFoundError / null and 416 to InvalidRangeError', async () => {
    const { handler } = fakeHandler((req) =>
      req.headers['range']
        ? { status: 416, body: '<Error><Code>InvalidRange</Code><Message>bad</Message></Error>' }
        : { status: 404, body: req.method === 'HEAD' ? '' : '<Error><Code>NoSuchKey</Code><Message>no</Message></Error>' },
    );
    const s = new S3ObjectStorage({ ...base, requestHandler: handler });
    await expect(s.getStream('gone')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(s.head('gone')).resolves.toBeNull();
    await expect(s.getStream('k', { start: 100 })).rejects.toBeInstanceOf(InvalidRangeError);
  });
});
