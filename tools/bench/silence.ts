/**
 * Section 12: pause detection, in seconds per 10 minutes of audio, on a 10-minute and a 3-hour talk
 * made from the synthesised talk of tools/media/generate-test-media.sh (talk.mp4 looped with stream
 * copy, its word-level captions repeated with it).
 *
 * - ours: detection with nothing stored, as for a video ingested before energy series existed:
 *   `computePeaks` (one ffmpeg decode to 8 kHz mono: the peaks and the frame-energy series) +
 *   `findSilentSpans` + `analysePauses` with the talk's words (pauses typed, metrics, summary);
 * - ours, stored: what a detect-silence request costs once the series is stored (the ingest or the
 *   waveform build made it): `encodeEnergy`'s bytes decoded + `findSilentSpans` + `analysePauses`;
 * - alternative: `ffmpeg -af silencedetect=n=-50dB:d=0.5` alone (a fixed threshold, no transcript,
 *   no types), its silences read from stderr.
 * Local files (page cache warm), one unmeasured round, then runs alternating paths. The pauses each
 * path finds over 0.5 s are counted, and how many of silencedetect's overlap one of ours.
 *
 * `npx tsx tools/bench/silence.ts` runs this section alone (needs the built libs:
 * `npx tsc -b tsconfig.build.json`); `BENCH_SILENCE_RUNS` (default 3; the 3-hour file gets one run
 * per path after the warm-up round unless BENCH_SILENCE_LONG_RUNS says otherwise).
 */
import { decodeEnergy, encodeEnergy, ENERGY_FRAMES_PER_SECOND, WAVEFORM_STORED_PEAKS_PER_SECOND } from '@wordcut/contracts';
import { computePeaks, FfmpegMediaTools } from '@wordcut/ffmpeg';
import { analysePauses, buildTranscriptFromVtt, findSilentSpans, type PauseWord } from '@wordcut/transcript';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { talkMedia } from '../media/talk-media';
import { BENCH_DIR, checkInterrupted, intEnv, median, onCleanup, round } from './common';
import { ensureMedia, type BenchMedia, type Recipe } from './media';
import { plainTable as table, runAlone } from './report';

export type SilencePathId = 'ours' | 'stored' | 'silencedetect';

export const SILENCE_LABELS: Record<SilencePathId, string> = {
  ours: 'ours: decode (peaks + energy) + analysis',
  stored: 'ours, series stored: read + analysis',
  silencedetect: 'alternative: ffmpeg silencedetect alone',
};

export interface SilencePath {
  path: SilencePathId;
  label: string;
  runsSec: number[];
  medianSec: number;
  /** median seconds per 10 minutes of audio */
  per10MinSec: number;
  /** media duration / wall time */
  realtime: number;
  /** silences of at least 0.5 s it found */
  pauses: number;
}

export interface SilenceMediaResult {
  media: string;
  durationSec: number;
  sizeMiB: number;
  words: number;
  paths: SilencePath[];
  /** share of silencedetect's silences that overlap one of ours (0..1) */
  agreement: number;
  /** the stored series' size, bytes */
  seriesBytes: number;
}

export interface SilenceResults {
  runs: number;
  longRuns: number;
  media: SilenceMediaResult[];
  sectionSec: number;
}

/** The synthesised talk looped to `seconds` (stream copy: the decoder sees a long talk). */
function loopedTalk(talk: string, talkSec: number, seconds: number, file: string, description: string): Recipe {
  return {
    file,
    description,
    timeoutMs: 600_000,
    steps: (out) => [['-stream_loop', String(Math.ceil(seconds / talkSec)), '-i', talk, '-c', 'copy', '-t', String(seconds), '-movflags', '+faststart', out]],
  };
}

/** silencedetect's silences (start, end) from ffmpeg's stderr. */
function silencedetect(file: string): Promise<Array<{ start: number; end: number }>> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-i', file, '-map', '0:a:0', '-vn', '-af', 'silencedetect=n=-50dB:d=0.5', '-f', 'null', '-'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const forget = onCleanup(`ffmpeg silencedetect (pid ${child.pid})`, () => child.kill('SIGKILL'));
    const spans: Array<{ start: number; end: number }> = [];
    let start: number | null = null;
    let rest = '';
    child.stderr.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split(/\r|\n/);
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const s = /silence_start: (-?[\d.]+)/.exec(line);
        if (s) start = Math.max(0, Number(s[1]));
        const e = /silence_end: ([\d.]+)/.exec(line);
        if (e && start !== null) {
          spans.push({ start, end: Number(e[1]) });
          start = null;
        }
      }
    });
    child.once('error', (err) => {
      forget();
      reject(err);
    });
    child.once('close', (code, signal) => {
      forget();
      if (code === 0) resolve(spans);
      else reject(new Error(`ffmpeg silencedetect exited with ${code ?? signal}`));
    });
  });
}

const OPTIONS = { minPauseDuration: 0.5, contextWords: 5, useAutoThresholds: false, padding: 0.1 };

export async function benchSilence(o: { runs: number; longRuns: number; log: (line: string) => void }): Promise<SilenceResults> {
  const t0 = performance.now();
  const talk = talkMedia(join(BENCH_DIR, 'talk'));
  const probe = await new FfmpegMediaTools().probe(talk.mp4);
  const talkSec = probe.streams.find((s) => s.codecType === 'audio')?.durationSec ?? probe.durationSec!;
  const ten = await ensureMedia(loopedTalk(talk.mp4, talkSec, 600, 'talk-640x360-10min.mp4', 'the synthesised talk looped to 10 minutes'), o.log);
  const long = await ensureMedia(loopedTalk(talk.mp4, talkSec, 3 * 3600, 'talk-640x360-3h.mp4', 'the synthesised talk looped to 3 hours'), o.log);
  const talkWords = buildTranscriptFromVtt(readFileSync(talk.vtt, 'utf8'));
  const fillers = new Set(talkWords.fillerWords);

  const results: SilenceMediaResult[] = [];
  for (const [media, runs] of [[ten, o.runs], [long, o.longRuns]] as Array<[BenchMedia, number]>) {
    const durationSec = media.probe.durationSec!;
    const words: PauseWord[] = [];
    for (let loop = 0; loop * talkSec < durationSec; loop++) {
      talkWords.words.forEach((w, i) => {
        if (loop * talkSec + w.end <= durationSec) words.push({ text: w.text, start: loop * talkSec + w.start, end: loop * talkSec + w.end, filler: fillers.has(i) });
      });
    }
    const analyse = (series: { durationSec: number; framesPerSecond: number; levels: Uint8Array }) => {
      const found = findSilentSpans(series);
      return analysePauses({ words, silences: found.spans, duration: series.durationSec, noiseFloorDb: found.noiseFloorDb }, OPTIONS);
    };
    let stored: Uint8Array = new Uint8Array();
    const once = async (path: SilencePathId): Promise<{ seconds: number; pauses: Array<{ start: number; end: number }> }> => {
      checkInterrupted();
      const start = performance.now();
      let pauses: Array<{ start: number; end: number }>;
      if (path === 'ours') {
        const { durationSec: d, energy } = await computePeaks(media.path, { peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND, timeoutMs: 600_000 });
        const series = { durationSec: d, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy };
        pauses = analyse(series).silences.map((s) => ({ start: s.startTime, end: s.endTime }));
        stored = encodeEnergy(series);
      } else if (path === 'stored') {
        pauses = analyse(decodeEnergy(stored)).silences.map((s) => ({ start: s.startTime, end: s.endTime }));
      } else {
        pauses = await silencedetect(media.path);
      }
      return { seconds: (performance.now() - start) / 1000, pauses };
    };
    // unmeasured round (page cache, the stored series for the second path), and what each path finds
    const found = { ours: (await once('ours')).pauses, stored: (await once('stored')).pauses, silencedetect: (await once('silencedetect')).pauses };
    const times: Record<SilencePathId, number[]> = { ours: [], stored: [], silencedetect: [] };
    for (let i = 0; i < runs; i++) {
      const order: SilencePathId[] = i % 2 === 0 ? ['ours', 'stored', 'silencedetect'] : ['silencedetect', 'stored', 'ours'];
      for (const path of order) {
        const { seconds } = await once(path);
        times[path].push(round(seconds, 3));
        o.log(`  silence ${basename(media.path)} ${path.padEnd(13)} run ${i + 1}/${runs}: ${seconds.toFixed(3)} s`);
      }
    }
    const paths = (['ours', 'stored', 'silencedetect'] as const).map((path): SilencePath => {
      const m = median(times[path]);
      return {
        path,
        label: SILENCE_LABELS[path],
        runsSec: times[path],
        medianSec: round(m, 3),
        per10MinSec: round((m * 600) / durationSec, 3),
        realtime: round(durationSec / m),
        pauses: found[path].filter((p) => p.end - p.start >= 0.5).length,
      };
    });
    const long05 = found.silencedetect.filter((p) => p.end - p.start >= 0.5);
    const agreed = long05.filter((p) => found.ours.some((q) => q.start < p.end && q.end > p.start)).length;
    results.push({
      media: basename(media.path),
      durationSec: round(durationSec, 1),
      sizeMiB: round(media.sizeBytes / 1024 / 1024),
      words: words.length,
      paths,
      agreement: long05.length ? round(agreed / long05.length, 3) : 1,
      seriesBytes: stored.length,
    });
  }
  return { runs: o.runs, longRuns: o.longRuns, media: results, sectionSec: round((performance.now() - t0) / 1000) };
}

export function renderSilence(r: SilenceResults): string[] {
  const out: string[] = [];
  out.push(`12. Pause detection on the synthesised talk looped (${r.runs} runs per path on 10 minutes, ${r.longRuns} on 3 hours, after a warm-up; local files)`);
  out.push(
    table(
      ['media', 'path', 'median s', 's per 10 min', 'x realtime', 'pauses >= 0.5 s'],
      r.media.flatMap((m) => m.paths.map((p) => [`${m.media} (${m.durationSec} s, ${m.words} words)`, p.label, p.medianSec, p.per10MinSec, p.realtime, p.pauses])),
    ),
  );
  for (const m of r.media) {
    const [ours, stored, alt] = m.paths as [SilencePath, SilencePath, SilencePath];
    out.push(
      `  => ${m.media}: ours ${round(ours.medianSec / alt.medianSec, 2)}x silencedetect's time (with peaks, types and metrics); from the stored series ` +
        `(${round(m.seriesBytes / 1024)} KiB) ${round(alt.medianSec / stored.medianSec)}x faster than silencedetect; ${round(m.agreement * 100)}% of silencedetect's silences are ours too`,
    );
  }
  out.push(`   section time ${r.sectionSec} s`);
  return out;
}

if (require.main === module) {
  runAlone('silence', (log) => benchSilence({ runs: intEnv('BENCH_SILENCE_RUNS', 3), longRuns: intEnv('BENCH_SILENCE_LONG_RUNS', 1), log }), renderSilence);
}
