/**
 * Section 11: reading WebVTT files, in process, on hostile and realistic input.
 *
 * - ours: `parseVttDocument` from @wordcut/transcript (its built dist, as the services run it): the
 *   line-based WebVTT parser algorithm, the cue text read in one pass with a stack, words and warnings;
 * - alternative: the previous implementation's core, the `webvtt-parser` package's full-file
 *   `WebVTTParser.parse(text, 'subtitles')` with the entity table the old code gave it. That alone is
 *   less than the old import did (it also read the header, sorted out the parser's errors and walked
 *   each cue's tree recursively into words), so the comparison favours the alternative.
 *
 * Cases: one 1 MiB line of cue text; 100,000 cues; 50,000 nested <b> tags in one cue; and two 2-hour
 * caption files: a talk with plain cues (section 4's synthetic talk) and YouTube-style automatic
 * captions (rolling two-line cues, a word-level inline timestamp and <c> span per word, cue settings).
 * Per case and path: one unmeasured run, then `runs` runs alternating paths; wall time of the call,
 * and the heap (V8 heapUsed, after a full GC before the call): how much it grew by the end of the call,
 * and how much the result still holds after another full GC. A path that throws is reported with its
 * error (the alternative overflows the stack on deep nesting).
 *
 * `npx tsx tools/bench/vtt-parse.ts` runs this section alone and prints its table (needs the built
 * libs: `npx tsc -b tsconfig.build.json`); `BENCH_VTT_RUNS` (default 5).
 */
import { parseVttDocument } from '@wordcut/transcript';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebVTTParser } from 'webvtt-parser';
import { MB, intEnv, median, round } from './common';
import { seededRandom, syntheticVtt, vttTime } from '../testing/transcript-data';
import { plainTable as table, runAlone } from './report';

export type VttParsePathId = 'ours' | 'webvtt-parser';

export const VTT_PARSE_LABELS: Record<VttParsePathId, string> = {
  ours: 'ours: parseVttDocument',
  'webvtt-parser': 'alternative: webvtt-parser parse()',
};

export interface VttParsePath {
  path: VttParsePathId;
  label: string;
  runsMs: number[];
  medianMs: number;
  maxMs: number;
  /** heapUsed at the end of the call minus before it (after a full GC), MiB; median of the runs */
  heapGrowthMiB: number;
  /** heapUsed after a full GC with the result alive minus before the call, MiB; median of the runs */
  retainedMiB: number;
  /** what the path returned: cue count (ours also counts its warnings) */
  result: string;
  /** set when the path threw */
  error?: string;
}

export interface VttParseCase {
  id: string;
  label: string;
  sizeMiB: number;
  lines: number;
  paths: VttParsePath[];
}

export interface VttParseResults {
  runs: number;
  cases: VttParseCase[];
  sectionSec: number;
}

/** The three hostile cases, by id: each should parse well under a second. */
export const VTT_PATHOLOGICAL = ['line', 'cues', 'nested'] as const;

// ---- the input ----

const WORDS = 'the a and to of we this you video editor words transcript timeline change make really think going know about cut clip audio music story'.split(' ');

function oneMiBLine(): string {
  const line = 'caption words on one very long line '.repeat(Math.ceil(MB / 36)).slice(0, MB);
  return `WEBVTT\n\n00:00:00.000 --> 00:00:10.000\n${line}\n`;
}

function manyCues(count: number): string {
  const out: string[] = ['WEBVTT', ''];
  for (let i = 0; i < count; i++) out.push(`${vttTime(i)} --> ${vttTime(i + 0.9)}`, `cue number ${i} says hello`, '');
  return out.join('\n');
}

function nestedTags(depth: number): string {
  return `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${'<b>'.repeat(depth)}deep${'</b>'.repeat(depth)}\n`;
}

/** YouTube automatic captions: each 3 s cue repeats the previous line and times each new word. */
function youtubeCaptions(seconds: number, seed: number): string {
  const rng = seededRandom(seed);
  const out: string[] = ['WEBVTT', 'Kind: captions', 'Language: en', ''];
  let previous = ' ';
  for (let t = 0; t < seconds; t += 3.01) {
    const words = Array.from({ length: 4 + Math.floor(rng() * 5) }, () => WORDS[Math.floor(rng() * WORDS.length)]!);
    const step = 3 / words.length;
    const inline = words.map((w, k) => (k === 0 ? w : `<${vttTime(t + k * step)}><c> ${w}</c>`)).join('');
    out.push(`${vttTime(t)} --> ${vttTime(t + 3)} align:start position:0%`, previous, inline, '');
    out.push(`${vttTime(t + 3)} --> ${vttTime(t + 3.01)} align:start position:0%`, words.join(' '), ' ', '');
    previous = words.join(' ');
  }
  return out.join('\n');
}

/** The named references the previous implementation handed webvtt-parser, with and without ';'. */
function oldEntityTable(): Record<string, string> {
  const named: Record<string, string> = {
    amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', quot: '"', apos: "'", lrm: '\u200e', rlm: '\u200f',
    hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
    laquo: '«', raquo: '»', copy: '©', reg: '®', trade: '™', deg: '°', euro: '€', pound: '£',
    yen: '¥', cent: '¢', times: '×', divide: '÷', iexcl: '¡', iquest: '¿', shy: '\u00ad',
    eacute: 'é', egrave: 'è', aacute: 'á', agrave: 'à', iacute: 'í', oacute: 'ó', uacute: 'ú',
    ntilde: 'ñ', ccedil: 'ç', auml: 'ä', ouml: 'ö', uuml: 'ü', szlig: 'ß',
  };
  const table: Record<string, string> = {};
  for (const [name, value] of Object.entries(named)) {
    table[`&${name};`] = value;
    table[`&${name}`] = value;
  }
  return table;
}

// ---- measuring ----

let collect: (() => void) | undefined;
/** A full GC (V8's gc(), exposed at run time). */
function fullGc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
}

const heapUsed = () => process.memoryUsage().heapUsed;

interface Sample {
  ms: number;
  growth: number;
  retained: number;
  result: string;
}

/** Keeps a result reachable until the retained heap has been read. */
let keep: unknown;

function sample(run: () => unknown, summarize: (r: unknown) => string): Sample {
  fullGc();
  const before = heapUsed();
  const t0 = performance.now();
  const result = run();
  const ms = performance.now() - t0;
  const growth = heapUsed() - before;
  keep = result;
  fullGc();
  const retained = heapUsed() - before;
  const text = summarize(keep);
  keep = undefined;
  return { ms, growth, retained, result: text };
}

const OLD_ENTITIES = oldEntityTable();

const PATHS: Record<VttParsePathId, { run: (text: string) => unknown; summarize: (r: unknown) => string }> = {
  ours: {
    run: (text) => parseVttDocument(text),
    summarize: (r) => {
      const doc = r as ReturnType<typeof parseVttDocument>;
      return `${doc.cues.length.toLocaleString('en-US')} cues, ${doc.warnings.length} warnings`;
    },
  },
  'webvtt-parser': {
    run: (text) => new WebVTTParser(OLD_ENTITIES).parse(text, 'subtitles'),
    summarize: (r) => `${(r as { cues: unknown[] }).cues.length.toLocaleString('en-US')} cues`,
  },
};

export async function benchVttParse(o: { runs: number; log: (line: string) => void }): Promise<VttParseResults> {
  const t0 = performance.now();
  const talkWords = Math.round(2 * 3600 * 2.6); // section 4's talk at its 2.6 words a second: 2 hours
  const inputs: Array<{ id: string; label: string; text: () => string }> = [
    { id: 'line', label: 'one 1 MiB line of cue text', text: oneMiBLine },
    { id: 'cues', label: '100,000 cues', text: () => manyCues(100_000) },
    { id: 'nested', label: '50,000 nested <b> in one cue', text: () => nestedTags(50_000) },
    { id: 'talk', label: `2-hour talk, plain cues (${talkWords.toLocaleString('en-US')} words)`, text: () => syntheticVtt(talkWords, 1) },
    { id: 'youtube', label: '2-hour YouTube automatic captions (rolling, word timestamps)', text: () => youtubeCaptions(2 * 3600, 1) },
  ];
  const cases: VttParseCase[] = [];
  for (const input of inputs) {
    const text = input.text();
    const samples: Record<VttParsePathId, Sample[]> = { ours: [], 'webvtt-parser': [] };
    const errors: Partial<Record<VttParsePathId, string>> = {};
    const order: VttParsePathId[] = ['ours', 'webvtt-parser'];
    for (let run = 0; run <= o.runs; run++) {
      for (const id of run % 2 === 0 ? order : [...order].reverse()) {
        if (errors[id] !== undefined) continue;
        try {
          const s = sample(() => PATHS[id].run(text), PATHS[id].summarize);
          if (run > 0) samples[id].push(s); // run 0 is the warm-up
        } catch (err) {
          errors[id] = `${(err as Error).name}: ${(err as Error).message}`;
        }
      }
      await new Promise((r) => setImmediate(r)); // let signals and IPC through between runs
    }
    const paths = order.map((id): VttParsePath => {
      const s = samples[id];
      const error = errors[id];
      if (s.length === 0) {
        return { path: id, label: VTT_PARSE_LABELS[id], runsMs: [], medianMs: Number.NaN, maxMs: Number.NaN, heapGrowthMiB: Number.NaN, retainedMiB: Number.NaN, result: '-', error: error ?? 'no run' };
      }
      return {
        path: id,
        label: VTT_PARSE_LABELS[id],
        runsMs: s.map((x) => round(x.ms, 2)),
        medianMs: round(median(s.map((x) => x.ms)), 1),
        maxMs: round(Math.max(...s.map((x) => x.ms)), 1),
        heapGrowthMiB: round(median(s.map((x) => x.growth)) / MB, 1),
        retainedMiB: round(median(s.map((x) => x.retained)) / MB, 1),
        result: s[0]!.result,
        ...(error !== undefined ? { error } : {}),
      };
    });
    const lines = text.split(/\r\n|\r|\n/).length;
    cases.push({ id: input.id, label: input.label, sizeMiB: round(text.length / MB, 2), lines, paths });
    const ours = paths[0]!;
    o.log(`  ${input.label}: ours ${ours.error ?? `${ours.medianMs} ms`}, alternative ${paths[1]!.error ?? `${paths[1]!.medianMs} ms`}`);
  }
  return { runs: o.runs, cases, sectionSec: round((performance.now() - t0) / 1000) };
}

/** The section's lines for the printed report. */
export function renderVttParse(r: VttParseResults): string[] {
  const out: string[] = [];
  out.push(`11. Reading WebVTT files in process (${r.runs} runs per path after a warm-up, alternating; heap = V8 heapUsed from after a full GC)`);
  const fig = (n: number) => (Number.isNaN(n) ? '-' : n);
  out.push(
    table(
      ['case', 'MiB', 'lines', 'path', 'median ms', 'max ms', 'heap growth MiB', 'retained MiB', 'result'],
      r.cases.flatMap((c) =>
        c.paths.map((p) => [c.label, c.sizeMiB, c.lines, p.label, fig(p.medianMs), fig(p.maxMs), fig(p.heapGrowthMiB), fig(p.retainedMiB), p.error ? `FAILED: ${p.error}` : p.result]),
      ),
    ),
  );
  for (const c of r.cases) {
    const [ours, alt] = c.paths as [VttParsePath, VttParsePath];
    if (!ours.error && !alt.error) out.push(`  => ${c.label}: ours ${round(alt.medianMs / ours.medianMs, 1)}x the alternative's speed`);
  }
  out.push(`   section time ${r.sectionSec} s`);
  return out;
}

if (require.main === module) {
  runAlone('vtt-parse', (log) => benchVttParse({ runs: intEnv('BENCH_VTT_RUNS', 5), log }), renderVttParse);
}
