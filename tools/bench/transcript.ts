/**
 * Section 4: reading and editing transcripts through a real gateway process, against the obvious
 * alternative of one jsonb document per transcript.
 *
 * Set-up: a throw-away database migrated with the gateway's migrations, its own NATS namespace, the
 * benchmark's S3, and ONLY the gateway (`services/gateway/dist/main.js`, tools/stack ServiceProcess).
 * Transcripts are written straight into Postgres with the gateway's own stores (VideoStore,
 * TranscriptStore.replaceForVideo), built by @wordcut/transcript from synthetic talk-like VTT: one of
 * 30,000 words (a 3-hour talk) and one of 3,000 words per concurrent client. The same transcripts go
 * into the scratch table bench_transcript_docs(id, doc jsonb, version), served by
 * transcript-doc-server.ts (a child process, as the gateway is one). The gateway's videos belong to
 * one gateway session (the upload form's identity), whose bearer token every request to it carries,
 * as the browser's do; the alternative has no identity check.
 *
 * Measured, over HTTP with keep-alive, each path the same way:
 * - GET the 30,000-word transcript, one request at a time (interleaved ours / alternative);
 * - PATCH the 30,000-word transcript, one client, 1-3 word texts per request;
 * - PATCH under N concurrent clients, each editing its own 3,000-word transcript with
 *   `Prefer: return=minimal` and the version its previous answer gave (so no 409s): first paced
 *   (each client pauses about `thinkMs` between edits, like a person editing), then a closed loop
 *   (back to back, no pause: the saturation throughput and the latency it costs).
 * Both paths get the same edits (same seeds); afterwards every client transcript is read back from
 * both and checked against what its client sent.
 */
import type { Transcript } from '@wordcut/contracts';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { Client } from 'pg';
import type { ServiceProcess } from '../stack/stack';
import { checkInterrupted, forkTs, onCleanup, percentile, round } from './common';
import { HttpClient, closedLoop, expectJson, pacedLoop, summarizeLatency, type LatencySummary } from './http-load';
import { benchEnv, startBenchGateway } from './stack';
import { bearer, startGatewaySession } from '../testing/identity';
import { seedVideoWithTranscript } from '../testing/seed-video';
import { randomTextEdit, seededRandom, syntheticVtt } from './transcript-data';
// the gateway's compiled stores and data source, as the service runs them
import { gatewayDataSource } from '../../services/gateway/dist/data-source.js';
import { TranscriptStore } from '../../services/gateway/dist/library/transcript-store.js';
import { VideoStore } from '../../services/gateway/dist/library/video-store.js';

export type TranscriptPath = 'ours' | 'doc';

export const TRANSCRIPT_LABELS: Record<TranscriptPath, string> = {
  ours: 'ours: gateway, word rows (GET json_agg; PATCH updates the changed rows)',
  doc: 'alternative: one jsonb document (GET doc::text; PATCH rewrites the doc)',
};

export interface TranscriptPathFigures {
  path: TranscriptPath;
  label: string;
  /** GET of the big transcript, one at a time; bytes of its JSON body. */
  get: ServerTimedSummary & { bodyMiB: number };
  /** PATCH of the big transcript, one client. */
  patchBig: ServerTimedSummary;
  /** PATCH under the concurrent clients, each on its own transcript, pausing between edits (absent when thinkMs is 0). */
  patchPaced?: ServerTimedSummary;
  /** PATCH under the concurrent clients, each on its own transcript, back to back (saturation). */
  patchClosed: ServerTimedSummary;
}

/** Client-side latency, and for the gateway its own measure of the same requests (access log). */
export interface ServerTimedSummary extends LatencySummary {
  server?: { p50Ms: number; p95Ms: number };
}

export interface TranscriptResults {
  bigWords: number;
  bigParagraphs: number;
  bigFillerWords: number;
  clientWords: number;
  clients: number;
  /** per client and per run (paced, closed) */
  patchesPerClient: number;
  /** mean think time of the paced clients (0: no paced run) */
  thinkMs: number;
  setupSec: number;
  paths: TranscriptPathFigures[];
  /** Client transcripts whose filler words differ between the two paths after the same edits. */
  fillerMismatches: number;
}

export interface TranscriptBenchOptions {
  s3Endpoint: string;
  bigWords: number;
  clientWords: number;
  clients: number;
  /** total PATCH requests of the concurrent run, spread over the clients */
  patches: number;
  /** GET (and single-client PATCH) requests of the big transcript, per path */
  gets: number;
  /** mean pause of a paced client between an answer and its next edit; 0 skips the paced run */
  thinkMs: number;
  log: (line: string) => void;
}

interface Seeded {
  videoId: string;
  transcriptId: string;
  /** word texts as created, and the version */
  texts: string[];
}

const serverSummary = (ms: number[]) => ({ p50Ms: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)) });

/**
 * The gateway's own durations (ms, its access log) of the last `keep` of the `total` `method`
 * requests sent since its log had `from` lines; waits until all `total` lines have come through its
 * stdout (undefined if they do not within 3 s).
 */
async function accessLogMs(gateway: ServiceProcess, from: number, method: string, total: number, keep: number): Promise<number[] | undefined> {
  const until = Date.now() + 3000;
  for (;;) {
    const ms = gateway.lines
      .slice(from)
      .filter((l) => l.msg === 'request' && l['method'] === method)
      .map((l) => Number(l['durationMs']));
    if (ms.length >= total) return ms.slice(total - keep, total);
    if (Date.now() > until) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchTranscript(o: TranscriptBenchOptions): Promise<TranscriptResults> {
  const t0 = performance.now();
  const patchesPerClient = Math.max(1, Math.round(o.patches / o.clients));

  const { db, namespace, env } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'benchtx', migrate: 'gateway' });
  // at info: its access log gives the time each request spent inside it
  const gateway = await startBenchGateway(env, 'info');
  // who owns the transcripts and calls the gateway: a gateway session, as the upload form starts one
  const session = await startGatewaySession(gateway.url);
  const auth = bearer(session.token);

  // ---- the data: built like ingest builds it, written with the gateway's own stores ----
  const ds = gatewayDataSource(db.url, 4);
  await ds.initialize();
  onCleanup('gateway data source', () => ds.destroy());
  const videos = new VideoStore(ds);
  const transcripts = new TranscriptStore(ds);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  onCleanup('Postgres client', () => pg.end());
  await pg.query('CREATE TABLE public.bench_transcript_docs (id uuid PRIMARY KEY, doc jsonb NOT NULL, version int NOT NULL)');

  const seed = async (words: number, seedNo: number): Promise<Seeded & { built: ReturnType<typeof buildTranscriptFromVtt> }> => {
    checkInterrupted();
    const built = buildTranscriptFromVtt(syntheticVtt(words, seedNo));
    if (built.words.length !== words) throw new Error(`the synthetic transcript has ${built.words.length} words, not ${words}`);
    const { videoId, transcriptId } = await seedVideoWithTranscript({ ds, videos, transcripts }, { ownerId: session.userId, title: `bench ${words} words`, built });
    // the alternative stores what the gateway answers, as one document
    const doc = (await transcripts.get(transcriptId))!;
    await pg.query('INSERT INTO public.bench_transcript_docs (id, doc, version) VALUES ($1, $2::jsonb, $3)', [transcriptId, JSON.stringify(doc), doc.version]);
    return { videoId, transcriptId, texts: built.words.map((w) => w.text), built };
  };
  const big = await seed(o.bigWords, 1);
  const small: Seeded[] = [];
  for (let c = 0; c < o.clients; c++) small.push(await seed(o.clientWords, 100 + c));
  await pg.query('ANALYZE');
  const docServer = forkTs('transcript-doc-server.ts', { BENCH_DATABASE_URL: db.url, BENCH_DOC_POOL_SIZE: '20' });
  const docPort = await docServer.message((m) => ((m as { type?: string }).type === 'ready' ? (m as { port: number }).port : undefined));
  const setupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  gateway up and ${1 + o.clients} transcripts written in ${setupSec} s (database ${db.name}, namespace ${namespace})`);

  const clients: Record<TranscriptPath, HttpClient> = { ours: new HttpClient(gateway.url), doc: new HttpClient(`http://127.0.0.1:${docPort}`) };
  onCleanup('HTTP clients', () => Object.values(clients).forEach((c) => c.close()));
  const getPath = (p: TranscriptPath, s: Seeded) => (p === 'ours' ? `/api/videos/${s.videoId}/transcript` : `/docs/${s.transcriptId}`);
  const patchPath = (p: TranscriptPath, s: Seeded) => (p === 'ours' ? `/api/transcripts/${s.transcriptId}` : `/docs/${s.transcriptId}`);
  const versions: Record<TranscriptPath, Map<string, number>> = { ours: new Map(), doc: new Map() };
  for (const p of ['ours', 'doc'] as const) for (const s of [big, ...small]) versions[p].set(s.transcriptId, 1);

  /** One PATCH with the version this client holds; the answer's version is the next one. */
  const patch = async (p: TranscriptPath, s: Seeded, deltas: ReturnType<typeof randomTextEdit>): Promise<number> => {
    const r = await clients[p].request('PATCH', patchPath(p, s), {
      json: { version: versions[p].get(s.transcriptId), wordDeltas: deltas },
      headers: { prefer: 'return=minimal', ...(p === 'ours' ? auth : {}) },
    });
    const summary = expectJson<{ version: number }>(r, 200, `PATCH (${p})`);
    versions[p].set(s.transcriptId, summary.version);
    return r.ms;
  };
  const read = async (p: TranscriptPath, s: Seeded): Promise<{ t: Transcript; ms: number; bytes: number }> => {
    const r = await clients[p].request('GET', getPath(p, s), p === 'ours' ? { headers: auth } : {});
    return { t: expectJson<Transcript>(r, 200, `GET (${p})`), ms: r.ms, bytes: r.body.length };
  };

  // ---- GET the big transcript: both must answer the same words ----
  const getLogFrom = gateway.lines.length;
  const first = { ours: await read('ours', big), doc: await read('doc', big) };
  if (first.ours.t.words.length !== o.bigWords) throw new Error(`GET answered ${first.ours.t.words.length} words, not ${o.bigWords}`);
  // jsonb keeps object keys in its own order: compare the fields
  const wordsOf = (t: Transcript) => JSON.stringify(t.words.map((w) => [w.text, w.start, w.end, w.confidence, w.group_number, w.word_order]));
  if (wordsOf(first.ours.t) !== wordsOf(first.doc.t)) throw new Error('the gateway and the jsonb document answer different words');
  for (let i = 0; i < 2; i++) for (const p of ['ours', 'doc'] as const) await read(p, big); // warm-up
  const getMs: Record<TranscriptPath, number[]> = { ours: [], doc: [] };
  for (let i = 0; i < o.gets; i++) {
    for (const p of i % 2 === 0 ? (['ours', 'doc'] as const) : (['doc', 'ours'] as const)) {
      checkInterrupted();
      getMs[p].push((await read(p, big)).ms);
    }
  }
  const gets = {} as Record<TranscriptPath, TranscriptPathFigures['get']>;
  const getServer = await accessLogMs(gateway, getLogFrom, 'GET', 3 + o.gets, o.gets);
  for (const p of ['ours', 'doc'] as const) {
    gets[p] = { ...summarizeLatency(getMs[p], getMs[p].reduce((a, b) => a + b, 0)), bodyMiB: round(first[p].bytes / 1024 ** 2, 2) };
    if (p === 'ours' && getServer) gets[p].server = serverSummary(getServer);
    o.log(`  transcript GET ${o.bigWords} words (${p}): p50 ${gets[p].p50Ms} ms, p95 ${gets[p].p95Ms} ms, ${gets[p].bodyMiB} MiB`);
  }

  // ---- PATCH the big transcript, one client ----
  const bigMs: Record<TranscriptPath, number[]> = { ours: [], doc: [] };
  const bigRng = seededRandom(7);
  const bigLogFrom = gateway.lines.length;
  for (let i = 0; i < o.gets + 2; i++) {
    const deltas = randomTextEdit(bigRng, o.bigWords);
    for (const p of i % 2 === 0 ? (['ours', 'doc'] as const) : (['doc', 'ours'] as const)) {
      checkInterrupted();
      const ms = await patch(p, big, deltas);
      if (i >= 2) bigMs[p].push(ms); // the first two are warm-up
    }
  }
  const patchBig = {} as Record<TranscriptPath, ServerTimedSummary>;
  const bigServer = await accessLogMs(gateway, bigLogFrom, 'PATCH', 2 + o.gets, o.gets);
  for (const p of ['ours', 'doc'] as const) {
    patchBig[p] = summarizeLatency(bigMs[p], bigMs[p].reduce((a, b) => a + b, 0));
    if (p === 'ours' && bigServer) patchBig[p].server = serverSummary(bigServer);
    o.log(`  transcript PATCH ${o.bigWords} words, 1 client (${p}): p50 ${patchBig[p].p50Ms} ms, p95 ${patchBig[p].p95Ms} ms`);
  }

  // ---- PATCH under concurrent clients, each its own transcript; the same edits for both paths ----
  const runs: Array<'paced' | 'closed'> = o.thinkMs > 0 ? ['paced', 'closed'] : ['closed'];
  const expected = small.map((s) => [...s.texts]);
  const edits = small.map((_, c) => {
    const rng = seededRandom(1000 + c);
    return Array.from({ length: 1 + runs.length * patchesPerClient }, () => randomTextEdit(rng, o.clientWords));
  });
  edits.forEach((list, c) => list.forEach((deltas) => deltas.forEach((d) => (expected[c]![d.word_order] = d.changes.text!))));
  const concurrent = { paced: {}, closed: {} } as Record<'paced' | 'closed', Record<TranscriptPath, ServerTimedSummary>>;
  for (const p of ['ours', 'doc'] as const) {
    checkInterrupted();
    // warm-up: every client's first edit, all at once (connections, JIT, caches)
    let logFrom = gateway.lines.length;
    await Promise.all(small.map((s, c) => patch(p, s, edits[c]![0]!)));
    for (const [k, run] of runs.entries()) {
      const next = (c: number, i: number) => {
        checkInterrupted();
        return patch(p, small[c]!, edits[c]![1 + k * patchesPerClient + i]!);
      };
      const { ms, wallMs } = run === 'paced' ? await pacedLoop(o.clients, patchesPerClient, o.thinkMs, seededRandom(99), next) : await closedLoop(o.clients, patchesPerClient, next);
      const summary: ServerTimedSummary = summarizeLatency(ms, wallMs);
      if (p === 'ours') {
        // the gateway's own measure of the same requests (its access log): the time spent inside it
        // (the first run's window also holds the warm-up's requests, which come first)
        const total = (k === 0 ? o.clients : 0) + ms.length;
        const server = await accessLogMs(gateway, logFrom, 'PATCH', total, ms.length);
        if (server) summary.server = serverSummary(server);
        logFrom = gateway.lines.length;
      }
      concurrent[run][p] = summary;
      o.log(`  transcript PATCH ${o.clientWords} words, ${o.clients} clients ${run} (${p}): p50 ${summary.p50Ms} ms, p95 ${summary.p95Ms} ms, ${summary.perSec} req/s`);
    }
  }

  // ---- both paths did the same work: every client's transcript reads back as its client wrote it ----
  let fillerMismatches = 0;
  for (let c = 0; c < small.length; c++) {
    const ours = (await read('ours', small[c]!)).t;
    const doc = (await read('doc', small[c]!)).t;
    for (const [p, t] of [['ours', ours], ['doc', doc]] as const) {
      const wantVersion = 2 + runs.length * patchesPerClient;
      if (t.version !== wantVersion) throw new Error(`client ${c}'s transcript (${p}) is at version ${t.version}, expected ${wantVersion}`);
      const bad = t.words.findIndex((w, i) => w.text !== expected[c]![i]);
      if (t.words.length !== o.clientWords || bad >= 0) throw new Error(`client ${c}'s transcript (${p}) does not hold its edits (first difference at word ${bad})`);
    }
    if (JSON.stringify(ours.fillerWords) !== JSON.stringify(doc.fillerWords)) fillerMismatches++;
  }
  if (fillerMismatches > 0) o.log(`  WARNING: ${fillerMismatches} client transcript(s) have different filler words on the two paths after the same edits`);

  await docServer.stop();
  return {
    bigWords: o.bigWords,
    bigParagraphs: big.built.paragraphs.length,
    bigFillerWords: big.built.fillerWords.length,
    clientWords: o.clientWords,
    clients: o.clients,
    patchesPerClient,
    setupSec,
    thinkMs: o.thinkMs,
    paths: (['ours', 'doc'] as const).map((p) => ({
      path: p,
      label: TRANSCRIPT_LABELS[p],
      get: gets[p],
      patchBig: patchBig[p],
      ...(o.thinkMs > 0 ? { patchPaced: concurrent.paced[p] } : {}),
      patchClosed: concurrent.closed[p],
    })),
    fillerMismatches,
  };
}
