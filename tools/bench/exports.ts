/**
 * Section 20: exports for other editors (docs/EDIT-EXPORTS.md), in process: a 3-hour 29.97 fps
 * source cut 500 times with 100 mutes, and its 25,000-word transcript. Each format is written
 * `runs` times after one unmeasured run; the median and the size are printed, beside the obvious
 * alternative of handing over the edit list itself as JSON (what an editor would then have to
 * convert), and the timeline's pieces alone (the work every timeline format shares).
 *
 * `npx tsx tools/bench/exports.ts` runs this section alone (needs the built libs:
 * `npx tsc -b tsconfig.build.json`); `BENCH_EXPORT_RUNS` (default 5).
 */
import { applyCuts, applyMutes, identityEditList, rationalRate, timelinePieces, writeEdl, writeFcpxml, writeMlt, writeOtio, type EditList, type ExportSource } from '@wordcut/edit-list';
import { wordsToSrt, wordsToVtt, wordsToWordByWord } from '@wordcut/transcript';
import { intEnv, median, round } from './common';
import { plainTable as table, runAlone } from './report';

export interface ExportCase {
  format: string;
  medianMs: number;
  sizeKiB: number;
}

export interface ExportResults {
  sourceHours: number;
  cuts: number;
  mutes: number;
  words: number;
  pieces: number;
  runs: number;
  cases: ExportCase[];
}

const HOURS = 3;
const CUTS = 500;
const MUTES = 100;
const WORDS = 25_000;

/** The edit: 500 evenly spread cuts of 2 s, then 100 mutes of 1 s at three levels (output times). */
function buildEdit(): EditList {
  const duration = HOURS * 3600;
  const spacing = duration / (CUTS + 1);
  let el = identityEditList(duration);
  el = applyCuts(el, Array.from({ length: CUTS }, (_, k) => ({ start: (k + 1) * spacing, end: (k + 1) * spacing + 2 })));
  const out = duration - CUTS * 2;
  const levels = ['silence', 'whisper', 'background'] as const;
  return applyMutes(el, Array.from({ length: MUTES }, (_, k) => ({ start: ((k + 0.5) * out) / MUTES, end: ((k + 0.5) * out) / MUTES + 1, level: levels[k % 3]! })));
}

function buildWords(durationSec: number) {
  const step = durationSec / WORDS;
  return Array.from({ length: WORDS }, (_, k) => ({ text: k % 12 === 11 ? 'done.' : 'word', start: k * step, end: k * step + step * 0.8, confidence: 0.9, group_number: Math.floor(k / 120), word_order: k }));
}

export async function benchExports(o: { runs: number; log: (line: string) => void }): Promise<ExportResults> {
  const el = buildEdit();
  const rate = rationalRate(29.97);
  const source: ExportSource = {
    fileName: 'A long talk.mp4',
    url: 'file:///A%20long%20talk.mp4',
    title: 'A long talk',
    rate,
    variableFrameRate: false,
    width: 1920,
    height: 1080,
    durationSec: el.sourceDuration,
    hasAudio: true,
    fullRange: false,
  };
  const words = buildWords(HOURS * 3600 - CUTS * 2);
  const pieces = timelinePieces(el, rate);
  const writers: Array<[string, () => string]> = [
    ['alternative: the edit list as JSON', () => JSON.stringify(el)],
    ['timeline pieces (shared by every timeline format)', () => JSON.stringify(timelinePieces(el, rate).length)],
    ['otio', () => writeOtio(source, timelinePieces(el, rate))],
    ['fcpxml', () => writeFcpxml(source, timelinePieces(el, rate))],
    ['edl', () => writeEdl(source, timelinePieces(el, rate))],
    ['mlt', () => writeMlt(source, timelinePieces(el, rate))],
    ['srt', () => wordsToSrt(words)],
    ['vtt', () => wordsToVtt(words, { languageCode: 'en' })],
    ['words.json', () => JSON.stringify(wordsToWordByWord(words, 'en'))],
  ];
  const cases: ExportCase[] = [];
  for (const [format, write] of writers) {
    let out = write();
    const times: number[] = [];
    for (let k = 0; k < o.runs; k++) {
      const t0 = performance.now();
      out = write();
      times.push(performance.now() - t0);
    }
    cases.push({ format, medianMs: round(median(times), 2), sizeKiB: round(Buffer.byteLength(out) / 1024) });
    o.log(`  ${format}: ${round(median(times), 2)} ms`);
  }
  return { sourceHours: HOURS, cuts: CUTS, mutes: MUTES, words: WORDS, pieces: pieces.length, runs: o.runs, cases };
}

export function renderExports(x: ExportResults): string[] {
  return [
    `20. Exports for other editors: a ${x.sourceHours}-hour 29.97 fps source, ${x.cuts} cuts, ${x.mutes} mutes (${x.pieces} timeline pieces), ${x.words.toLocaleString('en')} words; median of ${x.runs} runs`,
    table(['format', 'ms', 'KiB'], x.cases.map((c) => [c.format, c.medianMs, c.sizeKiB])),
  ];
}

if (require.main === module) runAlone('exports', (log) => benchExports({ runs: intEnv('BENCH_EXPORT_RUNS', 5), log }), renderExports);
