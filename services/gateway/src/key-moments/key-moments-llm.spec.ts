import { createLogger } from '@wordcut/platform';
import { findSentences, type TimedWord } from '@wordcut/keymoments';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyMomentsLlm, LLM_ANSWER_MAX_BYTES } from './key-moments-llm';

/** Sentences of about 5 s each, timed one after the other. */
function talk(count: number): TimedWord[] {
  const words: TimedWord[] = [];
  let t = 0.5;
  for (let s = 0; s < count; s++) {
    const text = `Sentence number ${s} says something plain about the old office building today.`.split(' ');
    for (const w of text) {
      words.push({ text: w, start: t, end: t + 0.35 });
      t += 0.42;
    }
    t += 0.5;
  }
  return words;
}

const words = talk(30);
const sentences = findSentences(words);
const moment = (first: number, last: number, extra: Record<string, unknown> = {}) => ({
  firstSentence: first,
  lastSentence: last,
  category: 'Quotable',
  title: `Moment ${first}`,
  description: 'What is said.',
  engagement: 70,
  reasons: ['a short line'],
  ...extra,
});
const chat = (content: unknown) => JSON.stringify({ choices: [{ message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }] });
const GOOD = { moments: [0, 4, 8, 12, 16, 20].map((k, x) => moment(k, k + 2, { engagement: 60 + x })) };

describe('KeyMomentsLlm against a local OpenAI-compatible endpoint', () => {
  let server: Server;
  let url: string;
  let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
  const requests: Array<{ path: string; auth: string | undefined; body: Record<string, unknown> }> = [];
  const llm = (timeoutMs = 2000) => new KeyMomentsLlm({ url: `${url}/v1/`, model: 'test-model', apiKey: 'secret-key', timeoutMs }, createLogger('keymoments-llm-test', 'silent'));

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        requests.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) as Record<string, unknown> });
        answer(req, body, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
  });

  it('sends the numbered sentences with the strict answer schema and the key, and keeps a good answer', async () => {
    answer = (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(chat(GOOD));
    const moments = await llm().find(words, 'v1');
    expect(moments).toHaveLength(6);
    expect(moments![0]).toMatchObject({ title: 'Moment 20', category: 'Quotable', engagement: 65, startTime: Math.round(sentences[20]!.start * 1000) / 1000 });
    const sent = requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.auth).toBe('Bearer secret-key');
    expect(sent.body).toMatchObject({ model: 'test-model', temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'key_moments', strict: true } } });
    const messages = sent.body['messages'] as Array<{ content: string }>;
    expect(messages[1]!.content.split('\n')).toHaveLength(sentences.length);
  });

  it('gives up on a slow endpoint at its timeout', async () => {
    answer = (_req, _body, res) => setTimeout(() => res.writeHead(200).end(chat(GOOD)), 1500).unref();
    const t0 = Date.now();
    expect(await llm(300).find(words, 'v1')).toBeNull();
    expect(Date.now() - t0).toBeLessThan(1200);
  });

  it('gives up on an answer that starts and then stalls', async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices": [');
    };
    expect(await llm(300).find(words, 'v1')).toBeNull();
  });

  it('rejects refusals, malformed bodies, malformed content and answers without content', async () => {
    for (const reply of [
      (res: ServerResponse) => res.writeHead(500).end('{"error": "overloaded"}'),
      (res: ServerResponse) => res.writeHead(200).end('not json at all'),
      (res: ServerResponse) => res.writeHead(200).end(chat('{"moments": [ {"firstSentence": 1,')),
      (res: ServerResponse) => res.writeHead(200).end(JSON.stringify({ choices: [] })),
      (res: ServerResponse) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end(),
    ]) {
      answer = (_req, _body, res) => reply(res);
      expect(await llm().find(words, 'v1')).toBeNull();
    }
  });

  it('rejects an answer over the size limit', async () => {
    answer = (_req, _body, res) => res.writeHead(200).end(chat({ moments: [moment(0, 2, { description: 'x'.repeat(LLM_ANSWER_MAX_BYTES) })] }));
    expect(await llm().find(words, 'v1')).toBeNull();
  });

  it('repairs a hostile answer: overlaps, bad numbers, unknown categories, huge and control-character texts', async () => {
    const hostile = {
      moments: [
        ...GOOD.moments,
        moment(1, 3, { engagement: 1e9, title: '<script>alert(1)</script>\u202e\u0007'.repeat(50) }),
        moment(-100, 9999, { category: 'Clickbait' }),
        moment(7, 7, { firstSentence: '7', lastSentence: 'x', category: 'visual' }),
        moment(24, 26, { category: 'HIGH-IMPACT', engagement: -5, reasons: Array.from({ length: 50 }, () => 'r'.repeat(5000)) }),
      ],
      extra: 'ignored',
    };
    answer = (_req, _body, res) => res.writeHead(200).end(chat(hostile));
    const moments = (await llm().find(words, 'v1'))!;
    expect(moments.length).toBeGreaterThanOrEqual(5);
    expect(moments.length).toBeLessThanOrEqual(10);
    const top = moments[0]!;
    expect(top.engagement).toBe(100);
    expect(top.title.length).toBeLessThanOrEqual(100);
    expect([...top.title].every((c) => c.charCodeAt(0) >= 32 && c !== '\u202e')).toBe(true);
    const impact = moments.find((m) => m.category === 'High-impact')!;
    expect(impact.engagement).toBe(0);
    expect(impact.reasons.length).toBeLessThanOrEqual(6);
    for (const r of impact.reasons) expect(r.length).toBeLessThanOrEqual(200);
    const sorted = [...moments].sort((a, b) => a.startTime - b.startTime);
    for (let k = 1; k < sorted.length; k++) expect(sorted[k]!.firstWord).toBeGreaterThan(sorted[k - 1]!.lastWord);
    for (const m of moments) {
      expect(m.duration).toBeGreaterThanOrEqual(15);
      expect(m.duration).toBeLessThanOrEqual(60);
    }
  });

  it('rejects an answer with too few moments that hold', async () => {
    answer = (_req, _body, res) => res.writeHead(200).end(chat({ moments: [moment(0, 2), moment(1, 3), moment(2, 4, { category: 'Nonsense' })] }));
    expect(await llm().find(words, 'v1')).toBeNull();
  });
});
