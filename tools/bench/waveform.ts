/**
 * Section 3: building a video's waveform peaks, in x realtime (media duration / wall time).
 *
 * - ours: `computePeaks` from @wordcut/ffmpeg, as the media worker runs it: ffmpeg decodes the first
 *   audio stream to 8 kHz mono s16le and the peaks are bucketed while it streams;
 * - alternative: decode the audio at its native rate and channels as float
 *   (`ffmpeg -i in -vn -f f32le pipe:1`) and compute the same peaks in JS (float-peaks.ts).
 *
 * Both at WAVEFORM_STORED_PEAKS_PER_SECOND, on local files (page cache warm), runs alternating after
 * one unmeasured round; each pair of results must describe the same audio.
 */
import { WAVEFORM_STORED_PEAKS_PER_SECOND } from '@wordcut/contracts';
import { computePeaks } from '@wordcut/ffmpeg';
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { checkInterrupted, median, onCleanup, round } from './common';
import { FloatPeakAccumulator, comparePeaks } from './float-peaks';
import type { BenchMedia } from './media';

export type WaveformMode = 'ours' | 'float';

export const WAVEFORM_LABELS: Record<WaveformMode, string> = {
  ours: 'ours: computePeaks (ffmpeg -> 8 kHz mono s16le, peaks while streaming)',
  float: 'alternative: ffmpeg -f f32le at native rate/channels, peaks in JS',
};

export interface WaveformRun {
  mode: WaveformMode;
  seconds: number;
  /** media duration / wall time */
  realtime: number;
}

export interface WaveformSummary {
  mode: WaveformMode;
  label: string;
  media: string;
  mediaDurationSec: number;
  /** the decoded audio's: sample rate and channels the path worked at */
  decodedAt: string;
  runs: WaveformRun[];
  medianSeconds: number;
  medianRealtime: number;
  peaks: number;
}

export interface WaveformMediaResult {
  media: string;
  durationSec: number;
  paths: WaveformSummary[];
  /** how alike the two paths' peaks are (0..255 units), and the difference in their number */
  meanAbsDiff: number;
  lengthDiff: number;
}

/** Largest mean difference (of 255) accepted between the two paths' peaks: they differ by resampling and the mono mix only. */
const MAX_MEAN_ABS_DIFF = 24;

/** The alternative: native-rate float PCM from ffmpeg's stdout, bucketed in JS. */
function floatPeaks(file: string, sampleRate: number, channels: number, peaksPerSecond: number): Promise<{ durationSec: number; peaks: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const acc = new FloatPeakAccumulator(sampleRate, channels, peaksPerSecond);
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, '-map', '0:a:0', '-vn', '-f', 'f32le', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const forget = onCleanup(`ffmpeg (pid ${child.pid})`, () => child.kill('SIGKILL'));
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => acc.push(chunk));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.once('error', (err) => {
      forget();
      reject(err);
    });
    child.once('close', (code, signal) => {
      forget();
      if (code === 0) resolve(acc.finish());
      else reject(new Error(`ffmpeg -f f32le exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}

export async function benchWaveform(o: { media: BenchMedia[]; runs: number; log: (line: string) => void }): Promise<WaveformMediaResult[]> {
  const pps = WAVEFORM_STORED_PEAKS_PER_SECOND;
  const results: WaveformMediaResult[] = [];
  for (const media of o.media) {
    const audio = media.probe.streams.find((s) => s.codecType === 'audio');
    if (!audio?.sampleRate || !audio.channels) throw new Error(`${basename(media.path)} has no audio stream with a known rate and channel count`);
    const durationSec = media.probe.durationSec ?? audio.durationSec;
    if (!durationSec) throw new Error(`${basename(media.path)} has no known duration`);
    const { sampleRate, channels } = audio;

    const once = async (mode: WaveformMode) => {
      checkInterrupted();
      const t0 = performance.now();
      const result = mode === 'ours' ? await computePeaks(media.path, { peaksPerSecond: pps }) : await floatPeaks(media.path, sampleRate, channels, pps);
      const seconds = (performance.now() - t0) / 1000;
      return { run: { mode, seconds: round(seconds, 3), realtime: round(durationSec / seconds) }, result };
    };

    // unmeasured round: ffmpeg and the file in the page cache; also the check that both saw the same audio
    const ours = (await once('ours')).result;
    const alt = (await once('float')).result;
    const same = comparePeaks(ours.peaks, alt.peaks);
    if (same.lengthDiff > 1 || same.meanAbsDiff > MAX_MEAN_ABS_DIFF || Math.abs(ours.durationSec - alt.durationSec) > 0.1) {
      throw new Error(
        `the two waveform paths disagree on ${basename(media.path)}: ${ours.peaks.length} vs ${alt.peaks.length} peaks, ` +
          `${round(ours.durationSec, 2)} vs ${round(alt.durationSec, 2)} s, mean difference ${round(same.meanAbsDiff)} of 255`,
      );
    }

    const runs: WaveformRun[] = [];
    for (let i = 0; i < o.runs; i++) {
      const order: WaveformMode[] = i % 2 === 0 ? ['ours', 'float'] : ['float', 'ours'];
      for (const mode of order) {
        const { run } = await once(mode);
        o.log(`  waveform ${basename(media.path)} ${mode.padEnd(5)} run ${i + 1}/${o.runs}: ${run.seconds.toFixed(2)} s, ${run.realtime}x realtime`);
        runs.push(run);
      }
    }
    const paths = (['ours', 'float'] as const).map((mode): WaveformSummary => {
      const mine = runs.filter((r) => r.mode === mode);
      const medianSeconds = median(mine.map((r) => r.seconds));
      return {
        mode,
        label: WAVEFORM_LABELS[mode],
        media: basename(media.path),
        mediaDurationSec: round(durationSec, 2),
        decodedAt: mode === 'ours' ? '8000 Hz mono s16' : `${sampleRate} Hz ${channels} ch f32`,
        runs: mine,
        medianSeconds: round(medianSeconds, 3),
        medianRealtime: round(durationSec / medianSeconds),
        peaks: (mode === 'ours' ? ours : alt).peaks.length,
      };
    });
    results.push({ media: basename(media.path), durationSec: round(durationSec, 2), paths, meanAbsDiff: round(same.meanAbsDiff, 2), lengthDiff: same.lengthDiff });
  }
  return results;
}
