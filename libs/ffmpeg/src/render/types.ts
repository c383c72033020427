/**
 * What a render is asked and what it answers, and the context its paths share once the source
 * is known (the plan's frame ranges, the gains, the audio mode).
 */
import type { FfmpegInput } from '../input';
import type { OutputVolumeRange } from './audio';
import type { DiskCache } from './disk-cache';
import type { RenderMediaInfo, VideoTrackInfo } from './media-info';
import type { FrameClock, FrameRange } from './plan';

export type RenderPath = 'smart' | 'copy-video' | 'reencode';

export interface RenderRequest {
  /** Local path of the original media (untrusted: read as MP4/MOV only, see mediaInput). */
  input: string;
  /** Local path of the MP4 to write. */
  output: string;
  /** Scratch directory owned by this render (the caller creates and removes it). */
  workDir: string;
  /** Kept source ranges in play order, seconds. */
  segments: ReadonlyArray<{ start: number; end: number }>;
  /** Gains on the output timeline (mutes). */
  volumes?: readonly OutputVolumeRange[];
  /** Extra video filter for a full re-encode (reframe for clips), applied after the cuts. */
  videoFilter?: string | null;
  /** ASS script to burn in (output timeline); forces a full re-encode. */
  assScript?: string | null;
  /** Force the full re-encode (what most tools do); used by the benchmark for comparison. */
  forceReencode?: boolean;
  signal?: AbortSignal;
  /** Called once the render knows its path, before it writes `output`. */
  onPath?: (path: RenderPath) => void;
  /** 0..100 over the whole render. */
  onProgress?: (percent: number, stage: string) => void;
  /** Media info read earlier (saves two ffprobe passes). */
  info?: RenderMediaInfo;
  /**
   * CPUs this render may use: parallel piece processes, or the encoder's threads in a full
   * re-encode. Default: the machine's (or its container's limit); a worker running several renders
   * at once gives each its share.
   */
  concurrency?: number;
  /** Per-ffmpeg timeout. Default 2 h. */
  timeoutMs?: number;
  /** Quality for re-encoded video (x264/x265 CRF). Default 18 for pieces, 20 for full re-encodes. */
  crf?: number;
  /**
   * Pieces made for earlier renders of the same source: `sourceId` must change whenever the
   * source's bytes do (its storage key and ETag), so a changed source never meets an old piece.
   */
  cache?: { store: Pick<DiskCache, 'take' | 'put'>; sourceId: string };
  /**
   * Full re-encodes: index (moov) first, so a player starts before it has the end (default). Off,
   * the output is written once, front to back, with its index last: it can be uploaded while it is
   * written. Smart renders always write their index first, in one pass (compose.ts).
   */
  faststart?: boolean;
}


export interface RenderResult {
  path: RenderPath;
  /** Why the smart path was not taken (null when it was). */
  fallbackReason: string | null;
  /**
   * How audio was made: packets copied; copied with the packets around gains re-encoded
   * (spliced); or decoded, cut and encoded whole.
   */
  audio: 'none' | 'copy-packets' | 'spliced' | 'reencoded';
  /** Why gains could not be spliced into copied audio and the whole audio was encoded (else null). */
  audioFallbackReason: string | null;
  /** Spliced audio: regions re-encoded, packets replaced, and the measured fidelity outside the gains. */
  audioSplice?: { regions: number; replacedPackets: number; snrDb: number };
  totalFrames: number;
  encodedFrames: number;
  /** Share of output video frames re-encoded, 0..1. */
  encodedShare: number;
  outputDurationSec: number;
  /** Frame rate of the output (null when unknown). */
  fps: number | null;
  durationMs: number;
  /** Smart path: pieces taken from the cache, and pieces made by this render. */
  pieces?: { reused: number; made: number };
}


export type AudioMode = RenderResult['audio'];

/** A render under way: its request, the source's media info, and what the planning decided. */
export interface RenderJob {
  req: RenderRequest;
  /** The original, pinned as an ffmpeg input. */
  source: FfmpegInput;
  info: RenderMediaInfo;
  video: VideoTrackInfo;
  /** Mean frames per second (the constant rate, when it is one). */
  fps: number;
  /** Where the source's frames start: its constant rate, or every frame's own start (VFR). */
  clock: FrameClock;
  /** Each frame boundary (0..frame count) in ticks of the stream's time base from the first frame. */
  ticks: Float64Array;
  /** Seconds from the source's start (what `-ss` counts) of a frame boundary. */
  secOf: (frame: number) => number;
  /** Length of the output: the kept ranges' source durations. */
  outputSec: number;
  /** Kept frames, play order. */
  ranges: readonly FrameRange[];
  /** Gains other than 1 on the output timeline. */
  volumes: readonly OutputVolumeRange[];
  audioMode: AudioMode;
  timeoutMs: number;
  progress: (percent: number, stage: string) => void;
}

/** `-movflags +faststart` unless the request writes its index last. */
export const faststartArgs = (req: Pick<RenderRequest, 'faststart'>): string[] => (req.faststart === false ? [] : ['-movflags', '+faststart']);
