import type { ProbeResult } from '@wordcut/contracts';
import { FfmpegError } from './errors';
import type { FfmpegInput } from './input';
import { runProcess } from './process';
import { probe, type ProbeOptions } from './probe';
import { runFfmpeg, type RunFfmpegOptions, type RunFfmpegResult } from './run-ffmpeg';
import { makeMp4Master, type MakeMasterOptions, type MasterPlan } from './master';
import { transcodeForBrowser, type TranscodeForBrowserOptions } from './transcode';
import { detectSceneChanges, type DetectScenesOptions } from './scenes';
import { readFrameGrid } from './render/frame-grid';
import { computePeaks, type ComputePeaksOptions, type PeaksResult } from './waveform';
import { extractSpeechAudio, type SpeechAudioOptions } from './speech-audio';

export type MediaProbeOptions = Pick<ProbeOptions, 'timeoutMs' | 'signal'>;
export type MediaRunOptions = Omit<RunFfmpegOptions, 'binary'>;

/**
 * What workers need from ffmpeg; inject it (fakes in unit tests, FfmpegMediaTools for real). A
 * plain string input is untrusted media: a local path or presigned http(s) URL read as MP4/MOV
 * only (mediaInput); pass an FfmpegInput for anything else.
 */
export interface MediaTools {
  probe(input: FfmpegInput | string, opts?: MediaProbeOptions): Promise<ProbeResult>;
  runFfmpeg(opts: MediaRunOptions): Promise<RunFfmpegResult>;
}

export type MediaPeaksOptions = Omit<ComputePeaksOptions, 'binary'>;
export type MediaTranscodeOptions = Omit<TranscodeForBrowserOptions, 'binary'>;
export type MediaScenesOptions = Omit<DetectScenesOptions, 'binary'>;
export type MediaMasterOptions = Omit<MakeMasterOptions, 'binary'>;

/** What the ingest worker needs on top of MediaTools: waveform peaks and browser proxies. */
export interface IngestMediaTools extends MediaTools {
  computePeaks(input: FfmpegInput | string, opts: MediaPeaksOptions): Promise<PeaksResult>;
  transcodeForBrowser(input: FfmpegInput | string, output: string, opts?: MediaTranscodeOptions): Promise<RunFfmpegResult>;
  detectSceneChanges(input: FfmpegInput | string, opts?: MediaScenesOptions): Promise<number[]>;
  /** Each frame's start when the frame rate varies (null when constant): edits are cut on these. */
  frameGrid(input: FfmpegInput | string, opts?: MediaProbeOptions): Promise<{ starts: number[]; end: number } | null>;
  /** The MP4 master of a recording in another container (MKV, WebM), at `output`. */
  makeMaster(input: FfmpegInput, probe: ProbeResult, output: string, opts?: MediaMasterOptions): Promise<MasterPlan & RunFfmpegResult>;
  /** A stretch of the first audio stream as 16 kHz mono speech audio, for a transcription endpoint. */
  extractSpeechAudio(input: FfmpegInput, output: string, opts: SpeechAudioOptions & { timeoutMs: number; signal?: AbortSignal }): Promise<void>;
}

export interface FfmpegMediaToolsOptions {
  /** Default `ffmpeg` (PATH). */
  ffmpegPath?: string;
  /** Default `ffprobe` (PATH). */
  ffprobePath?: string;
}

export class FfmpegMediaTools implements IngestMediaTools {
  readonly ffmpegPath: string;
  readonly ffprobePath: string;

  constructor(opts: FfmpegMediaToolsOptions = {}) {
    this.ffmpegPath = opts.ffmpegPath ?? 'ffmpeg';
    this.ffprobePath = opts.ffprobePath ?? 'ffprobe';
  }

  probe(input: FfmpegInput | string, opts: MediaProbeOptions = {}): Promise<ProbeResult> {
    return probe(input, { ...opts, binary: this.ffprobePath });
  }

  runFfmpeg(opts: MediaRunOptions): Promise<RunFfmpegResult> {
    return runFfmpeg({ ...opts, binary: this.ffmpegPath });
  }

  computePeaks(input: FfmpegInput | string, opts: MediaPeaksOptions): Promise<PeaksResult> {
    return computePeaks(input, { ...opts, binary: this.ffmpegPath });
  }

  transcodeForBrowser(input: FfmpegInput | string, output: string, opts: MediaTranscodeOptions = {}): Promise<RunFfmpegResult> {
    return transcodeForBrowser(input, output, { ...opts, binary: this.ffmpegPath });
  }

  detectSceneChanges(input: FfmpegInput | string, opts: MediaScenesOptions = {}): Promise<number[]> {
    return detectSceneChanges(input, { ...opts, binary: this.ffmpegPath });
  }

  frameGrid(input: FfmpegInput | string, opts: MediaProbeOptions = {}): Promise<{ starts: number[]; end: number } | null> {
    return readFrameGrid(input, { ...opts, binary: this.ffprobePath });
  }

  makeMaster(input: FfmpegInput, probe: ProbeResult, output: string, opts: MediaMasterOptions = {}): Promise<MasterPlan & RunFfmpegResult> {
    return makeMp4Master(input, probe, output, { ...opts, binary: this.ffmpegPath });
  }

  extractSpeechAudio(input: FfmpegInput, output: string, opts: SpeechAudioOptions & { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    return extractSpeechAudio(input, output, { ...opts, binary: this.ffmpegPath });
  }

  /** `ffmpeg -version` and `ffprobe -version` first lines, for startup checks / readiness. */
  async versions(timeoutMs = 10_000): Promise<{ ffmpeg: string; ffprobe: string }> {
    const one = async (binary: string) => {
      const r = await runProcess({ binary, args: ['-hide_banner', '-version'], timeoutMs, maxStdoutBytes: 1 << 20 });
      if (r.exitCode !== 0) {
        throw new FfmpegError(`${binary} -version exited with code ${r.exitCode}`, {
          binary,
          args: ['-version'],
          exitCode: r.exitCode,
          signal: r.signal,
          stderrTail: r.stderrTail,
          durationMs: r.durationMs,
        });
      }
      return r.stdout.toString('utf8').split('\n')[0]?.trim() ?? '';
    };
    const [ffmpeg, ffprobe] = await Promise.all([one(this.ffmpegPath), one(this.ffprobePath)]);
    return { ffmpeg, ffprobe };
  }
}
