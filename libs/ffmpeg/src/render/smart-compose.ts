/**
 * What the smart render composes from: the original's sample tables checked against what ffprobe
 * reported (the plan's frame numbers must name the same samples), the runs of video samples for
 * copied and re-encoded pieces, and the audio packets as samples of the original or new bytes.
 */
import { MediaProbeError } from '../errors';
import type { MadeAudio } from './audio-track';
import type { ComposeAudio, VideoRun } from './compose';
import type { RenderMediaInfo } from './media-info';
import { Mp4BoundsError, parameterSetsOf, readMovieTables, type Mp4Track } from '../mp4';
import type { PlannedPiece } from './plan';

export interface SourceLayout {
  video: Mp4Track;
  audio: Mp4Track | null;
  /** Parameter sets of the video's sample description, length prefixed. */
  params: Buffer;
  /** Display rank of each sample (decode order), and the sample shown at each rank. */
  rankOf: Int32Array;
  sampleAt: Int32Array;
}

/** Display rank of each sample from its composition time (ties keep decode order). */
export function displayRanks(t: Pick<Mp4Track, 'count' | 'durations' | 'ctts'>): { rankOf: Int32Array; sampleAt: Int32Array } {
  const cts = new Float64Array(t.count);
  let dts = 0;
  for (let i = 0; i < t.count; i++) {
    cts[i] = dts + (t.ctts?.[i] ?? 0);
    dts += t.durations[i]!;
  }
  const sampleAt = Int32Array.from({ length: t.count }, (_, i) => i).sort((a, b) => cts[a]! - cts[b]! || a - b);
  const rankOf = new Int32Array(t.count);
  sampleAt.forEach((s, r) => (rankOf[s] = r));
  return { rankOf, sampleAt };
}

/**
 * The original's layout, or why its samples cannot be composed directly (then the render takes
 * the full re-encode). The sample tables must show the frames and keyframes ffprobe saw.
 */
export async function readSourceLayout(path: string, info: RenderMediaInfo): Promise<SourceLayout | string> {
  const v = info.video!;
  let tracks: Mp4Track[];
  try {
    tracks = (await readMovieTables(path)).tracks;
  } catch (e) {
    // a file the upload would refuse is never composed, nor rendered any other way
    if (e instanceof Mp4BoundsError) throw new MediaProbeError('UNSAFE_STRUCTURE', e.message, 'the original');
    return `the sample tables cannot be read (${(e as Error).message})`;
  }
  const video = tracks.find((t) => t.handler === 'vide');
  const audio = tracks.find((t) => t.handler === 'soun') ?? null;
  if (!video) return 'no video track in the sample tables';
  if (info.audio && !audio) return 'no audio track in the sample tables';
  if (video.count !== v.framePts.length) return `the sample tables hold ${video.count} frames, the demuxer shows ${v.framePts.length}`;
  if (video.timescale * v.timeBase.num !== v.timeBase.den) return 'the track time scale differs from the stream time base';
  if (video.descriptions) return 'several sample descriptions';
  const params = parameterSetsOf(video.stsd);
  if (!params) return 'NAL units without 4-byte lengths';
  const { rankOf, sampleAt } = displayRanks(video);
  const keyRanks = video.sync ? [...video.sync.keys()].filter((i) => video.sync![i]).map((i) => rankOf[i]!).sort((a, b) => a - b) : [...rankOf.keys()];
  if (keyRanks.length !== v.keyframes.length || keyRanks.some((r, i) => r !== v.keyframes[i])) return 'the sample tables mark other keyframes than the demuxer';
  return { video, audio, params, rankOf, sampleAt };
}

/**
 * The original's samples shown as frames [start, end), in decode order (a self-contained run):
 * one run of samples but for the first keyframe's leading pictures (shown before it), left out.
 */
export function copyRun(layout: SourceLayout, file: string, p: Pick<PlannedPiece, 'start' | 'end'>): VideoRun {
  const samples = Array.from(layout.sampleAt.subarray(p.start, p.end)).sort((a, b) => a - b);
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  for (let s = first, k = 0; s <= last; s++) {
    if (samples[k] === s) k++;
    else if (layout.rankOf[s]! >= p.start) throw new Error(`frames ${p.start}-${p.end} are not one run in decode order`);
  }
  const t = layout.video;
  if (t.sync && !t.sync[first]) throw new Error(`frame ${p.start} is not a sync sample`);
  return {
    samples: samples.map((s) => ({ file, offset: t.offsets[s]!, size: t.sizes[s]! })),
    ranks: samples.map((s) => layout.rankOf[s]! - p.start),
    sync: samples.map((s) => !t.sync || t.sync[s] === 1),
    params: layout.params,
  };
}

/** Every sample of a re-encoded piece (an MP4 of `frames` frames). */
export async function pieceRun(file: string, frames: number): Promise<VideoRun> {
  const t = (await readMovieTables(file)).tracks.find((x) => x.handler === 'vide');
  if (!t || t.count !== frames) throw new Error(`the piece ${file} holds ${t?.count ?? 0} frames, not ${frames}`);
  const params = parameterSetsOf(t.stsd);
  if (!params) throw new Error(`the piece ${file} has no parameter sets`);
  const { rankOf } = displayRanks(t);
  return {
    samples: Array.from({ length: t.count }, (_, s) => ({ file, offset: t.offsets[s]!, size: t.sizes[s]! })),
    ranks: Array.from(rankOf),
    sync: Array.from({ length: t.count }, (_, s) => !t.sync || t.sync[s] === 1),
    params,
  };
}

/**
 * The output's audio: copied packets are the original's samples where its tables list the same
 * packets (else their bytes are written anew); re-encoded audio is the samples of its own file.
 */
export async function composedAudio(made: MadeAudio, layout: SourceLayout, source: string, info: RenderMediaInfo): Promise<ComposeAudio | null> {
  if (made.mode === 'none') return null;
  if (made.packets) {
    const t = layout.audio!;
    const a = info.audio!;
    const same = t.count === a.packetPts.length && made.packets.every((p) => Buffer.isBuffer(p) || t.sizes[p.source] === p.bytes.length);
    return {
      track: t,
      samples: made.packets.map((p) => (Buffer.isBuffer(p) ? p : same ? { file: source, offset: t.offsets[p.source]!, size: t.sizes[p.source]! } : p.bytes)),
      durations: new Uint32Array(made.packets.length).fill(a.packetTicks!),
      editMediaTime: 0,
      startSec: made.startSec ?? 0,
    };
  }
  if (!made.file) throw new Error('the re-encoded audio has no file');
  const t = (await readMovieTables(made.file)).tracks.find((x) => x.handler === 'soun');
  if (!t) throw new Error('the re-encoded audio has no audio track');
  return {
    track: t,
    samples: Array.from({ length: t.count }, (_, s) => ({ file: made.file!, offset: t.offsets[s]!, size: t.sizes[s]! })),
    durations: t.durations,
    editMediaTime: t.editMediaTime,
  };
}
