/**
 * The tuning loop: the analyser (from its source, no build) over one half of the evaluation set,
 * with each talk's words and energy cached beside the voiced media, so a run takes seconds. Prints
 * the half's figures and, per talk, the first five moments (✓ matches a label) and the labels.
 *
 * `npx tsx tools/keymoments-eval/tune.ts [tune|held-out]` (default tune: tune on it, report the other
 * with `npm run bench`).
 */
import { ENERGY_FRAMES_PER_SECOND } from '@wordcut/contracts';
import { computePeaks } from '@wordcut/ffmpeg';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { findKeyMoments } from '../../libs/keymoments/src';
import { generateSet } from './generate';
import { figures, matches, scoreTalk, sumCounts, type ScoreCounts } from './score';
import type { Split } from './talks';

interface Inputs {
  words: Array<{ text: string; start: number; end: number }>;
  energy: number[];
}

async function inputsOf(mp4: string, vtt: string): Promise<Inputs> {
  const cache = `${mp4}.inputs.json`;
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as Inputs;
  const words = buildTranscriptFromVtt(readFileSync(vtt, 'utf8')).words.map((w) => ({ text: w.text, start: w.start, end: w.end }));
  const peaks = await computePeaks(mp4, { peaksPerSecond: 1, timeoutMs: 60_000 });
  const inputs = { words, energy: Array.from(peaks.energy) };
  writeFileSync(cache, JSON.stringify(inputs));
  return inputs;
}

async function main(): Promise<void> {
  const split = (process.argv[2] ?? 'tune') as Split;
  const set = await generateSet({});
  const all: ScoreCounts[] = [];
  for (const { talk, mp4, vtt, truth } of set.talks.filter((t) => t.talk.split === split)) {
    const { words, energy } = await inputsOf(mp4, vtt);
    const found = findKeyMoments({ words, energy: { framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: Uint8Array.from(energy) }, scenes: [] });
    const labelled = truth.moments.map((m) => ({ start: m.start, end: m.end, category: m.category }));
    const spans = found.map((m) => ({ start: m.startTime, end: m.endTime, category: m.category }));
    const counts = scoreTalk(spans, labelled);
    all.push(counts);
    console.log(`\n${talk.id}: top-5 hits ${counts.rankedHits}/${counts.ranked}, recall ${counts.recalled}/${counts.labelled}`);
    found.forEach((m, k) => {
      const hit = labelled.some((l) => matches(spans[k]!, l));
      console.log(`  ${k < 5 ? (hit ? '✓' : '✗') : ' '} ${m.startTime.toFixed(1).padStart(6)}–${m.endTime.toFixed(1).padEnd(6)} ${m.category.padEnd(12)} ${String(m.engagement).padStart(3)}% ${m.title.slice(0, 60)} | ${m.reasons[0]?.slice(0, 70) ?? ''}`);
    });
    for (const l of truth.moments) console.log(`    label ${l.start.toFixed(1).padStart(6)}–${l.end.toFixed(1).padEnd(6)} ${l.category.padEnd(12)} ${talk.sentences[talk.moments.find((m) => m.category === l.category && Math.abs(truth.sentences[m.from]!.start - l.start) < 0.01)?.from ?? 0]?.slice(0, 60)}`);
  }
  const f = figures(sumCounts(all));
  console.log(`\n${split}: precision@5 ${f.precisionAt5?.toFixed(2)}, recall ${f.recall?.toFixed(2)}, start ${f.startDistance?.toFixed(1)} s, end ${f.endDistance?.toFixed(1)} s, category ${f.categoryAgreement?.toFixed(2)}`);
}

void main();
