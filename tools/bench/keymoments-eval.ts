/**
 * Section 21: key moments against moments labelled by hand: the evaluation set of
 * tools/keymoments-eval (public-domain speeches and essays, and two flat notice talks with a planted
 * list and aphorism, each voiced by espeak-ng; README.md there). Each talk's words come from its
 * word-level VTT (`buildTranscriptFromVtt`), its frame energy from its mp4 (`computePeaks`, as the
 * media worker makes it) and its scene changes too (`detectSceneChanges`: a plain picture, none);
 * `findKeyMoments` answers, score.ts compares, per half of the set (tune, held-out).
 *
 * The figures of the first run, before any tuning, are kept in tools/keymoments-eval/baseline.json
 * and printed beside the current ones ("before" / "now"); `--write-baseline` (or
 * BENCH_KEYMOMENTS_EVAL_WRITE_BASELINE=1) records the current ones there instead.
 *
 * `npx tsx tools/bench/keymoments-eval.ts` runs this section alone (needs the built libs:
 * `npx tsc -b tsconfig.build.json`, and espeak-ng and ffmpeg the first time, to voice the set).
 */
import { ENERGY_FRAMES_PER_SECOND } from '@wordcut/contracts';
import { computePeaks, detectSceneChanges } from '@wordcut/ffmpeg';
import { findKeyMoments, KEY_MOMENT_RULES_VERSION } from '@wordcut/keymoments';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateSet } from '../keymoments-eval/generate';
import { figures, matches, scoreTalk, sumCounts, TOP, type ScoreCounts, type ScoreFigures } from '../keymoments-eval/score';
import type { Split } from '../keymoments-eval/talks';
import { ROOT, checkInterrupted, round } from './common';
import { plainTable as table, runAlone } from './report';

export const BASELINE_FILE = join(ROOT, 'tools', 'keymoments-eval', 'baseline.json');

export interface EvalTalk {
  id: string;
  split: Split;
  words: number;
  durationSec: number;
  counts: ScoreCounts;
  /** as findKeyMoments ranks them; `hit`: matches a labelled moment */
  moments: Array<{ category: string; engagement: number; startTime: number; endTime: number; title: string; hit: boolean }>;
}

export interface EvalHalves {
  tune: ScoreFigures;
  heldOut: ScoreFigures;
}

/** What baseline.json holds. */
export interface EvalBaseline {
  recordedAt: string;
  rulesVersion: number;
  withEnergy: boolean;
  halves: EvalHalves;
  talks: Array<{ id: string; split: Split; labelled: number; found: number; ranked: number; rankedHits: number; recalled: number }>;
}

export interface KeyMomentsEvalResults {
  rulesVersion: number;
  /** every talk analysed with its energy series */
  withEnergy: boolean;
  halves: EvalHalves;
  talks: EvalTalk[];
  baseline: EvalBaseline | null;
  baselineWritten: boolean;
  set: { dir: string; talks: number; made: number; seconds: number };
  /** computePeaks and detectSceneChanges over every talk */
  mediaSec: number;
  /** findKeyMoments over every talk (the first loads wink-nlp's model) */
  analyseMs: number;
  sectionSec: number;
}

const round3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);
const rounded = (f: ScoreFigures): ScoreFigures => ({
  ...f,
  precisionAt5: round3(f.precisionAt5),
  recall: round3(f.recall),
  startDistance: round3(f.startDistance),
  endDistance: round3(f.endDistance),
  categoryAgreement: round3(f.categoryAgreement),
});

function readBaseline(): EvalBaseline | null {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as EvalBaseline) : null;
}

export async function benchKeyMomentsEval(o: { log: (line: string) => void; writeBaseline?: boolean }): Promise<KeyMomentsEvalResults> {
  const t0 = performance.now();
  const set = await generateSet({ log: o.log });
  o.log(`  set: ${set.talks.length} talks in ${relative(ROOT, set.dir)}, ${set.made.length ? `${set.made.length} voiced` : 'all current'} (${set.seconds} s)`);
  let mediaMs = 0;
  let analyseMs = 0;
  let withEnergy = true;
  const talks: EvalTalk[] = [];
  for (const { talk, mp4, vtt, truth } of set.talks) {
    checkInterrupted();
    const words = buildTranscriptFromVtt(readFileSync(vtt, 'utf8')).words.map((w) => ({ text: w.text, start: w.start, end: w.end }));
    let t = performance.now();
    const peaks = await computePeaks(mp4, { peaksPerSecond: 1, timeoutMs: 60_000 });
    const scenes = await detectSceneChanges(mp4, { timeoutMs: 60_000 });
    mediaMs += performance.now() - t;
    if (peaks.energy.length === 0) withEnergy = false;
    t = performance.now();
    const found = findKeyMoments({ words, energy: { framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: peaks.energy }, scenes });
    analyseMs += performance.now() - t;
    const labelled = truth.moments.map((m) => ({ start: m.start, end: m.end, category: m.category }));
    const spans = found.map((m) => ({ start: m.startTime, end: m.endTime, category: m.category }));
    talks.push({
      id: talk.id,
      split: talk.split,
      words: truth.words,
      durationSec: round(truth.duration),
      counts: scoreTalk(spans, labelled),
      moments: found.map((m, k) => ({ category: m.category, engagement: m.engagement, startTime: m.startTime, endTime: m.endTime, title: m.title, hit: labelled.some((l) => matches(spans[k]!, l)) })),
    });
  }
  const half = (split: Split) => rounded(figures(sumCounts(talks.filter((x) => x.split === split).map((x) => x.counts))));
  const halves: EvalHalves = { tune: half('tune'), heldOut: half('held-out') };
  let baseline = readBaseline();
  if (o.writeBaseline) {
    baseline = {
      recordedAt: new Date().toISOString(),
      rulesVersion: KEY_MOMENT_RULES_VERSION,
      withEnergy,
      halves,
      talks: talks.map((x) => ({ id: x.id, split: x.split, labelled: x.counts.labelled, found: x.counts.found, ranked: x.counts.ranked, rankedHits: x.counts.rankedHits, recalled: x.counts.recalled })),
    };
    writeFileSync(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
  }
  return {
    rulesVersion: KEY_MOMENT_RULES_VERSION,
    withEnergy,
    halves,
    talks,
    baseline,
    baselineWritten: Boolean(o.writeBaseline),
    set: { dir: relative(ROOT, set.dir), talks: set.talks.length, made: set.made.length, seconds: set.seconds },
    mediaSec: round(mediaMs / 1000),
    analyseMs: Math.round(analyseMs),
    sectionSec: round((performance.now() - t0) / 1000),
  };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${Math.round(x * 100)}%`);
const sec = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${round(x)} s`);
/** a title cut to `n` characters on a word */
function short(title: string, n = 26): string {
  if (title.length <= n) return title;
  const cut = title.slice(0, n);
  return `${cut.slice(0, cut.lastIndexOf(' ') > n / 2 ? cut.lastIndexOf(' ') : n).replace(/[\s,;:.…]+$/, '')}…`;
}

export function renderKeyMomentsEval(r: KeyMomentsEvalResults): string[] {
  const out: string[] = [];
  const b = r.baseline?.halves;
  out.push(
    `21. Key moments against hand labels: ${r.set.talks} talks of tools/keymoments-eval voiced by espeak-ng, rules version ${r.rulesVersion}` +
      `${r.withEnergy ? ', with their energy series' : ', some without energy'}; overall figures are micro-averages (sums of hits / sums of counts)`,
  );
  const row = (label: string, f: (x: ScoreFigures) => string): string[] => [label, b ? f(b.tune) : '-', f(r.halves.tune), b ? f(b.heldOut) : '-', f(r.halves.heldOut)];
  out.push(
    table(
      ['figure', 'tune: before', 'tune: now', 'held-out: before', 'held-out: now'],
      [
        row('talks', (x) => String(x.talks)),
        row('labelled moments', (x) => String(x.labelled)),
        row('found moments', (x) => String(x.found)),
        row(`precision@${TOP} (found among the first ${TOP} that match)`, (x) => pct(x.precisionAt5)),
        row('recall (labelled moments matched)', (x) => pct(x.recall)),
        row('start distance (mean, matched)', (x) => sec(x.startDistance)),
        row('end distance (mean, matched)', (x) => sec(x.endDistance)),
        row('category agreement (matched)', (x) => pct(x.categoryAgreement)),
      ],
    ),
  );
  const base = relative(ROOT, BASELINE_FILE);
  if (r.baselineWritten) out.push(`  => baseline written to ${base}: "before" is this run`);
  else if (r.baseline) out.push(`  => before: ${base}, recorded ${r.baseline.recordedAt.slice(0, 10)} (rules version ${r.baseline.rulesVersion})`);
  else out.push(`  => no baseline yet (${base}): run with --write-baseline to record one`);
  out.push('  held-out talks (top 5 as ranked; * matches a labelled moment):');
  out.push(
    table(
      ['talk', 'found', `hits in top ${TOP}`, 'recall', `top ${TOP}`],
      r.talks
        .filter((x) => x.split === 'held-out')
        .map((x) => [
          x.id,
          x.counts.found,
          `${x.counts.rankedHits}/${x.counts.ranked}`,
          `${x.counts.recalled}/${x.counts.labelled}`,
          x.moments.slice(0, TOP).map((m) => `${m.hit ? '*' : ''}${short(m.title)}`).join(' | '),
        ]),
    ),
  );
  out.push(`   set ${r.set.made ? `voiced (${r.set.made} talks)` : 'cached'} in ${r.set.seconds} s; energy and scenes ${r.mediaSec} s; findKeyMoments ${r.analyseMs} ms for all; section time ${r.sectionSec} s`);
  return out;
}

if (require.main === module) {
  const writeBaseline = process.argv.includes('--write-baseline') || process.env['BENCH_KEYMOMENTS_EVAL_WRITE_BASELINE'] === '1';
  runAlone('keymoments-eval', (log) => benchKeyMomentsEval({ log, writeBaseline }), renderKeyMomentsEval);
}
