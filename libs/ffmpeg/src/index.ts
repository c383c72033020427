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
  probeFailureReason,
  unplayableReason,
  type FfprobeJson,
  type ProbeOptions,
} from './probe';
export {
  FfmpegMediaTools,
  type FfmpegMediaToolsOptions,
  type MediaProbeOptions,
  type MediaRunOptions,
  type MediaTools,
} from './media-tools';
