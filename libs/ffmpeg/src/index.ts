export { buildFfmpegArgs, buildFfprobeArgs, redactUrls, toFfmpegInput, type FfmpegArgsOptions } from './args';
export {
  LOCAL_FILE_PROTOCOLS,
  PRESIGNED_URL_PROTOCOLS,
  assertPinnedInput,
  inputArgs,
  mediaInput,
  pcmInput,
  SPEECH_AUDIO_FORMATS,
  speechAudioInput,
  type SpeechAudioFormat,
  unpinnedInputs,
  withInputOptions,
  workFileInput,
  type FfmpegCommand,
  type FfmpegInput,
  type InputFormat,
  type InputProtocol,
  type MediaContainer,
} from './input';
export { SPEECH_AUDIO_BYTES_PER_SECOND, SPEECH_AUDIO_CONTENT_TYPES, SPEECH_SAMPLE_RATE, extractSpeechAudio, speechAudioCommand, type SpeechAudioOptions } from './speech-audio';
export { makeMp4Master, masterCommand, masterPlan, type MakeMasterOptions, type MasterPlan } from './master';
export {
  MP4_LIMITS,
  Mp4BoundsError,
  Mp4UnsupportedError,
  bytesSource,
  checkMovieBoxes,
  childBoxes,
  drefIssues,
  parseBoxHeader,
  parseMovieTables,
  readMovieTables,
  type ByteSource,
  type Mp4Limits,
  type Mp4Track,
  type MovieCheck,
  type MovieIssue,
} from './mp4';
export { DEFAULT_MOVIE_CHECK_TIMEOUT_MS, assertCheckedInput, assertSelfContainedMovie, checkMatroskaInput, checkMovieInput, sniffContainer, type MovieCheckOptions } from './movie-check';
export { checkMatroska, MATROSKA_LIMITS, startsLikeEbml, type MatroskaCheck, type MatroskaLimits, type MatroskaProblem } from './mkv/matroska';
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
export { EnergyAccumulator } from './energy';
export { DEFAULT_SCENES_TIMEOUT_MS, SCENE_CHANGE_MEAN_DIFFERENCE, detectSceneChanges, parseFramecrc, sceneChangesCommand, sceneChangesFromThumbnails, type DetectScenesOptions } from './scenes';
export { DEFAULT_PEAKS_TIMEOUT_MS, PEAKS_SAMPLE_RATE, computePeaks, peaksDecodeCommand, type ComputePeaksOptions, type PeaksResult } from './waveform';
export { DEFAULT_TRANSCODE_TIMEOUT_MS, browserProxyCommand, transcodeForBrowser, type TranscodeForBrowserOptions } from './transcode';
export { browserPlayback, displayDimensions, primaryAudioStream, primaryVideoStream, type BrowserPlayback } from './playback';
export { readRenderMediaInfo, analyseVideoPackets, parsePacketCsv, type RenderMediaInfo, type VideoTrackInfo, type AudioTrackInfo, type Rational } from './render/media-info';
export { readFrameGrid } from './render/frame-grid';
export {
  planSmartPieces,
  planStats,
  segmentsToFrameRanges,
  frameRangesToSampleRanges,
  frameRangesToPacketPlan,
  type FrameRange,
  type PlannedPiece,
  type SampleRange,
  type PacketRange,
  type SmartPlanStats,
} from './render/plan';
export { machineCpus } from './cpus';
export { DiskCache, type DiskCacheOptions } from './render/disk-cache';
export { AAC_BLOCK, SPLICE_MIN_SNR_DB, adtsFrameOffsets, spliceGains, spliceRegions, type SpliceRegion } from './render/audio-splice';
export { renderEdit, smartRenderBlocker, type RenderRequest, type RenderResult, type RenderPath } from './render/render';
export { assemblePcm, decodeToPcm, encodePcmToAac, type OutputVolumeRange, type PcmFormat } from './render/audio';
export { ASPECT_RATIOS, ASPECT_RATIO_IDS, DEFAULT_REFRAME, RATIO_MATCH_TOLERANCE, planReframe, type AspectRatioId, type Reframe, type ReframeMode, type ReframePlan } from './render/reframe';
export { DEFAULT_CAPTION_LOOK, assEscape, assTime, buildAssScript, buildCaptionCues, type CaptionCue, type CaptionLayout, type CaptionLook, type CaptionWord } from './render/captions';
export { sampleFrames, sampleFramesCommand, type SampleFramesOptions, type SampledFrame } from './frames';
