import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAiCompatibleTranscriber, TranscriptionServiceError } from './transcriber';

/** A local HTTP endpoint answering what each test sets, recording what it was sent. */
describe('OpenAiCompatibleTranscriber', () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  let answer: { status: number; body: string } = { status: 200, body: '{}' };
  const seen: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'transcriber-'));
    await writeFile(join(dir, 'chunk-0.mp3'), Buffer.from('ID3 not really audio'));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('latin1') });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => (seen.length = 0));

  const transcriber = (o: { apiKey?: string; timeoutMs?: number; maxAnswerBytes?: number } = {}) =>
    new OpenAiCompatibleTranscriber({ baseUrl: base, model: 'whisper-1', timeoutMs: o.timeoutMs ?? 5000, ...o });
  const request = { path: '', format: 'mp3' as const, fileName: 'chunk-0.mp3', language: 'de' };
  const send = (t = transcriber()) => t.transcribe({ ...request, path: join(dir, 'chunk-0.mp3') });

  it('posts the audio as multipart with word timestamps, the model, language and key, and reads the words', async () => {
    answer = { status: 200, body: JSON.stringify({ language: 'german', text: 'Guten Tag', words: [{ word: ' Guten', start: 0.5, end: 0.9 }, { word: ' Tag', start: 0.9, end: 1.3 }] }) };
    const heard = await send(transcriber({ apiKey: 'sk-test' }));
    expect(heard.words.map((w) => [w.text, w.start, w.end])).toEqual([
      ['Guten', 0.5, 0.9],
      ['Tag', 0.9, 1.3],
    ]);
    expect(heard.language).toBe('de');
    const [req] = seen;
    expect(req!.url).toBe('/v1/audio/transcriptions');
    expect(req!.headers.authorization).toBe('Bearer sk-test');
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    for (const field of ['name="model"\r\n\r\nwhisper-1', 'name="response_format"\r\n\r\nverbose_json', 'name="timestamp_granularities[]"\r\n\r\nword', 'name="language"\r\n\r\nde', 'filename="chunk-0.mp3"', 'ID3 not really audio']) {
      expect(req!.body).toContain(field);
    }
    expect(transcriber({ apiKey: 'sk-test' }).endpoint).toBe(`${base}audio/transcriptions`);
  });

  it('sends no Authorization header without a key', async () => {
    answer = { status: 200, body: JSON.stringify({ text: 'Hi', words: [{ word: 'Hi', start: 0, end: 0.2 }] }) };
    await send();
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    [401, true, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, 'The transcription service answered HTTP 401: Incorrect API key provided.'],
    [413, true, { error: { message: 'Maximum content size limit exceeded' } }, 'The transcription service answered HTTP 413: Maximum content size limit exceeded.'],
    [429, false, { error: { message: 'Rate limit reached' } }, 'The transcription service answered HTTP 429: Rate limit reached.'],
    [503, false, { detail: 'model loading' }, 'The transcription service answered HTTP 503: model loading.'],
  ])('HTTP %i: permanent %s, with the service\'s own reason', async (status, permanent, body, message) => {
    answer = { status, body: JSON.stringify(body) };
    const err = (await send().catch((e: unknown) => e)) as TranscriptionServiceError;
    expect(err).toBeInstanceOf(TranscriptionServiceError);
    expect({ message: err.message, permanent: err.permanent, status: err.status }).toEqual({ message, permanent, status });
  });

  it('an answer without word timings is a permanent failure that says what the endpoint must do', async () => {
    answer = { status: 200, body: JSON.stringify({ text: 'only text' }) };
    const err = (await send().catch((e: unknown) => e)) as TranscriptionServiceError;
    expect(err).toMatchObject({ permanent: true });
    expect(err.message).toMatch(/word timings/);
  });

  it('an answer that is not JSON, or too large, is refused', async () => {
    answer = { status: 200, body: '<html>proxy error</html>' };
    await expect(send()).rejects.toMatchObject({ message: 'The transcription service answered something that is not JSON.', permanent: false });
    answer = { status: 200, body: JSON.stringify({ text: 'x'.repeat(5000), words: [] }) };
    await expect(send(transcriber({ maxAnswerBytes: 1000 }))).rejects.toMatchObject({ message: "The transcription service's answer is larger than 1000 bytes.", permanent: true });
  });

  it('an endpoint that cannot be reached is a transient failure', async () => {
    const gone = new OpenAiCompatibleTranscriber({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 5000 });
    await expect(gone.transcribe({ ...request, path: join(dir, 'chunk-0.mp3') })).rejects.toMatchObject({ name: 'TranscriptionServiceError', permanent: false, status: null });
  });
});
