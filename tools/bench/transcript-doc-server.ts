/**
 * Child process of the benchmark: the transcript benchmark's alternative, a transcript stored as ONE
 * jsonb document per row (table bench_transcript_docs(id uuid, doc jsonb, version int), created by
 * the parent in the test database), served by a bare node:http server with a pg pool as large as
 * the gateway's (DATABASE_POOL_SIZE, 20):
 *
 * - GET /docs/:id: `SELECT doc::text` and send it as it is;
 * - PATCH /docs/:id (body as PATCH /api/transcripts/:id, word deltas): in a transaction, read the doc
 *   FOR UPDATE, check `version` (409 when stale), parse it, apply the deltas with @wordcut/transcript's
 *   applyWordDeltas (renumbering, paragraphs, fillers: what the gateway's general path does), write
 *   the whole document back; `Prefer: return=minimal` answers the gateway's summary, else the doc.
 *
 * No framework: it pays less per request than the gateway (NestJS), in the alternative's favour.
 * Env: BENCH_DATABASE_URL, BENCH_DOC_POOL_SIZE (20). IPC: sends {type:'ready', port}.
 */
import { transcriptPatchSchema, type Paragraph, type Word } from '@wordcut/contracts';
import { TranscriptEditError, applyWordDeltas } from '@wordcut/transcript';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { exitWithParent, send } from './common';

/** The stored document: the same JSON as GET /api/videos/:id/transcript answers. */
interface TranscriptDoc {
  id: string;
  videoId: string;
  version: number;
  languageCode: string;
  words: Word[];
  paragraphs: Paragraph[];
  fillerWords: number[];
  updatedAt: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

async function getDoc(pool: Pool, id: string): Promise<string> {
  const { rows } = await pool.query<{ doc: string }>('SELECT doc::text AS doc FROM bench_transcript_docs WHERE id = $1', [id]);
  if (!rows[0]) throw new HttpError(404, 'Transcript not found.');
  return rows[0].doc;
}

async function patchDoc(pool: Pool, id: string, rawBody: string, minimal: boolean): Promise<string> {
  const parsed = transcriptPatchSchema.safeParse(JSON.parse(rawBody || '{}'));
  if (!parsed.success || !('wordDeltas' in parsed.data)) throw new HttpError(400, 'Send wordDeltas.');
  const { version: expected, wordDeltas } = parsed.data;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ doc: string; version: number }>('SELECT doc::text AS doc, version FROM bench_transcript_docs WHERE id = $1 FOR UPDATE', [id]);
    const row = rows[0];
    if (!row) throw new HttpError(404, 'Transcript not found.');
    if (expected !== undefined && expected !== row.version) throw new HttpError(409, `version ${expected} is stale, now ${row.version}`);
    const doc = JSON.parse(row.doc) as TranscriptDoc;
    const next = applyWordDeltas({ words: doc.words, paragraphs: doc.paragraphs }, wordDeltas);
    const updated: TranscriptDoc = { ...doc, ...next, version: row.version + 1, updatedAt: new Date().toISOString() };
    const text = JSON.stringify(updated);
    await client.query('UPDATE bench_transcript_docs SET doc = $2::jsonb, version = $3 WHERE id = $1', [id, text, updated.version]);
    await client.query('COMMIT');
    if (!minimal) return text;
    return JSON.stringify({ id, videoId: doc.videoId, version: updated.version, wordCount: updated.words.length, fillerWords: updated.fillerWords, updatedAt: updated.updatedAt });
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (err instanceof TranscriptEditError) throw new HttpError(422, err.message);
    throw err;
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  const url = process.env['BENCH_DATABASE_URL'];
  if (!url) throw new Error('BENCH_DATABASE_URL is required');
  const pool = new Pool({ connectionString: url, max: Number(process.env['BENCH_DOC_POOL_SIZE'] ?? 20) });

  const server = http.createServer((req, res) => {
    const m = /^\/docs\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    const answer =
      !m ? Promise.reject(new HttpError(404, 'no such route'))
      : req.method === 'GET' ? getDoc(pool, m[1]!)
      : req.method === 'PATCH' ? readBody(req).then((body) => patchDoc(pool, m[1]!, body, /return=minimal/i.test(String(req.headers['prefer'] ?? ''))))
      : Promise.reject(new HttpError(405, 'GET or PATCH'));
    answer.then(
      (json) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json),
      (err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(String((err as Error).message ?? err));
      },
    );
  });
  exitWithParent(async () => {
    server.closeAllConnections();
    server.close();
    await pool.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

main().catch((err: unknown) => {
  process.stderr.write(`transcript-doc-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
