/**
 * Section 13: key moments on a 30,000-word transcript: the synthesised lesson of
 * tools/media/generate-test-media.sh (flat sentences, a numbered list, an aphorism; word-level
 * captions) repeated until it holds 30,000 words (about 3 hours), with a frame-energy series of the
 * same length (speech where the words are).
 *
 * - ours: `findKeyMoments` (sentences, parts of speech, entities and sentiment read by wink-nlp
 *   1,200 words at a time, our signals, every window of whole sentences from 15 to 60 s scored, the
 *   moments chosen and described);
 * - alternative: the whole transcript read by wink-nlp as one document (what the NLP step costs
 *   without chunks; nothing scored or chosen), and the heap it keeps while it is alive.
 * The first run of ours includes loading the model; then runs alternate paths.
 *
 * `NODE_OPTIONS=--expose-gc npx tsx tools/bench/keymoments.ts` runs this section alone (needs the built
 * libs: `npx tsc -b tsconfig.build.json`; without --expose-gc the heap figures are taken without a
 * collection); `BENCH_KEYMOMENTS_RUNS` (default 5).
 */
import { findKeyMoments, NLP_CHUNK_WORDS, type TimedWord } from '@wordcut/keymoments';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { lessonMedia } from '../media/talk-media';
import { ROOT } from '../stack/stack';
import { checkInterrupted, intEnv, median, round } from './common';
import { renderScenes, type ScenesResults } from './scenes';
import { plainTable as table, runAlone } from './report';

export const KEY_MOMENT_WORDS = 30_000;

export interface KeyMomentsPath {
  label: string;
  runsMs: number[];
  medianMs: number;
  maxMs: number;
}

export interface KeyMomentsResults {
  runs: number;
  words: number;
  sentences: number;
  durationSec: number;
  /** the first run of ours: the model loaded too */
  firstRunMs: number;
  ours: KeyMomentsPath;
  whole: KeyMomentsPath;
  /** heap grown by one run of ours, nothing collected during it (an upper bound of what it holds at once), MiB */
  oursHeapGrowthMiB: number;
  /** heap kept alive by the whole transcript as one wink-nlp document, MiB */
  wholeDocumentHeapMiB: number;
  moments: Array<{ category: string; engagement: number; startTime: number; duration: number; title: string }>;
  /** the picture's scene changes (the Visual signal), ours against decoding every frame */
  scenes?: ScenesResults;
  sectionSec: number;
}

const MB = 1024 * 1024;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** The heap a value keeps while alive (MiB), measured with a collection before and after when the runtime exposes one. */
function heapKept(make: () => unknown): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = [make()];
  gc();
  const after = process.memoryUsage().heapUsed;
  held.push(kept);
  return round((after - before) / MB);
}
/** what heapKept measured, alive until the section ends */
const held: unknown[] = [];

export async function benchKeyMoments(o: { runs: number; log: (line: string) => void }): Promise<KeyMomentsResults> {
  const t0 = performance.now();
  const lesson = lessonMedia(join(ROOT, '.data', 'test-media'));
  const one = buildTranscriptFromVtt(readFileSync(lesson.vtt, 'utf8')).words;
  const period = lesson.truth.duration + 0.6;
  const words: TimedWord[] = [];
  for (let k = 0; words.length < KEY_MOMENT_WORDS; k++) for (const w of one) words.push({ text: w.text, start: w.start + k * period, end: w.end + k * period });
  const durationSec = words[words.length - 1]!.end + 1;
  const fps = 100;
  const levels = new Uint8Array(Math.ceil(durationSec * fps)).fill(70);
  for (const [k, w] of words.entries()) for (let f = Math.floor(w.start * fps); f < Math.ceil(w.end * fps); f++) levels[f] = 190 + (k % 7);
  const energy = { framesPerSecond: fps, levels };
  const text = words.map((w) => w.text).join(' ');
  o.log(`  ${words.length} words, ${round(durationSec / 3600, 2)} h, ${o.runs} runs per path`);

  let first = performance.now();
  let moments = findKeyMoments({ words, energy });
  const firstRunMs = round(performance.now() - first);
  const nlp = winkNLP(model, ['sbd', 'pos', 'ner', 'negation', 'sentiment']);
  const oursMs: number[] = [];
  const wholeMs: number[] = [];
  let sentences = 0;
  for (let r = 0; r < o.runs; r++) {
    checkInterrupted();
    first = performance.now();
    moments = findKeyMoments({ words, energy });
    oursMs.push(round(performance.now() - first));
    first = performance.now();
    const doc = nlp.readDoc(text);
    sentences = doc.sentences().length();
    wholeMs.push(round(performance.now() - first));
  }
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  findKeyMoments({ words, energy });
  const oursHeapGrowthMiB = round((process.memoryUsage().heapUsed - heapBefore) / MB);
  const path = (label: string, runsMs: number[]): KeyMomentsPath => ({ label, runsMs, medianMs: round(median(runsMs)), maxMs: round(Math.max(...runsMs)) });
  const results: KeyMomentsResults = {
    runs: o.runs,
    words: words.length,
    sentences,
    durationSec: round(durationSec),
    firstRunMs,
    ours: path('ours: findKeyMoments (chunked NLP + signals + windows + choice)', oursMs),
    whole: path('alternative: wink-nlp reads the whole transcript as one document', wholeMs),
    oursHeapGrowthMiB,
    wholeDocumentHeapMiB: heapKept(() => nlp.readDoc(text)),
    moments: moments.map((m) => ({ category: m.category, engagement: m.engagement, startTime: m.startTime, duration: m.duration, title: m.title })),
    sectionSec: round((performance.now() - t0) / 1000),
  };
  held.length = 0;
  return results;
}

export function renderKeyMoments(r: KeyMomentsResults): string[] {
  const out: string[] = [];
  out.push(`13. Key moments on the synthesised lesson repeated to ${r.words} words (${r.sentences} sentences, ${round(r.durationSec / 3600, 2)} h), ${r.runs} runs per path`);
  out.push(table(['path', 'median ms', 'max ms'], [r.ours, r.whole].map((p) => [p.label, p.medianMs, p.maxMs])));
  out.push(`  => first run (model loaded too) ${r.firstRunMs} ms; ours is ${round(r.ours.medianMs / r.whole.medianMs, 2)}x the NLP pass alone`);
  out.push(
    `  => heap: one run of ours grows it by ${r.oursHeapGrowthMiB} MiB (documents of ${NLP_CHUNK_WORDS} words at most); the whole transcript as one document keeps ${r.wholeDocumentHeapMiB} MiB` +
      ((globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: figures without a collection)'),
  );
  out.push(`  => ${r.moments.length} moments: ${r.moments.map((m) => `${m.category} ${m.engagement}% at ${Math.round(m.startTime)} s (${Math.round(m.duration)} s)`).join(', ')}`);
  if (r.scenes) out.push(...renderScenes(r.scenes));
  out.push(`   section time ${r.sectionSec} s`);
  return out;
}

if (require.main === module) {
  runAlone('keymoments', (log) => benchKeyMoments({ runs: intEnv('BENCH_KEYMOMENTS_RUNS', 5), log }), renderKeyMoments);
}
