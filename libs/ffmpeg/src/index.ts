export {
  DEFAULT_PROTOCOL_WHITELIST,
  buildFfmpegArgs,
  buildFfprobeArgs,
  redactUrls,
  toFfmpegInput,
  type FfmpegArgsOptions,
  type FfprobeArgsOptions,
} from './args';
export * from './errors';
export { ProgressParser, parseClock, parseProgressBlock, type FfmpegProgress } from './progress';
export { DEFAULT_STDERR_TAIL_BYTES, TailBuffer } from './process';
export { runFfmpeg, type RunFfmpegOptions, type RunFfmpegResult } from './run-ffmpeg';
export {
  DEFAULT_PROBE_TIMEOUT_MS,
  mapFfprobeJson,
  parseRational,
  probe,
  isInputReadFailure,
  probeFailureReason,
  streamRotation,
  unplayableReason,
  type FfprobeJson,
  type ProbeOptions,
} from './probe';
export {
  FfmpegMediaTools,
  type FfmpegMediaToolsOptions,
  type IngestMediaTools,
  type MediaPeaksOptions,
  type MediaTranscodeOptions,
  type MediaProbeOptions,
  type MediaRunOptions,
  type MediaTools,
} from './media-tools';
export { MAX_PEAK_GAIN, PeakAccumulator, scalePeaks } from './peaks';
export { DEFAULT_PEAKS_TIMEOUT_MS, PEAKS_SAMPLE_RATE, computePeaks, peaksDecodeArgs, type ComputePeaksOptions, type PeaksResult } from './waveform';
export { DEFAULT_TRANSCODE_TIMEOUT_MS, browserProxyArgs, transcodeForBrowser, type TranscodeForBrowserOptions } from './transcode';
export { browserPlayback, displayDimensions, primaryAudioStream, primaryVideoStream, type BrowserPlayback } from './playback';
