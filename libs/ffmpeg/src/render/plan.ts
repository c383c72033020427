/**
 * Pure planning for renders: which frames of the source a list of kept source ranges means, which
 * pieces can be stream-copied (whole GOPs) and which must be re-encoded (partial GOPs at the cut
 * points), and where audio must be cut so that it stays in sync with the video. Frames are placed
 * on the source's clock: a constant rate, or each frame's own start (a variable rate).
 */
import { boundaryTime, nearestBoundary, type FrameGrid } from '@wordcut/edit-list';

/** The source's frame clock: a constant rate in frames per second, or every frame's start. */
export type FrameClock = number | FrameGrid;

const gridOf = (c: FrameClock): FrameGrid => (typeof c === 'number' ? { fps: c } : c);

/** Seconds from the first frame to frame boundary `frame` of a clock. */
export const clockTime = (c: FrameClock, frame: number): number => (typeof c === 'number' ? frame / c : boundaryTime(c, frame));

/** Running length of ranges played one after another (at a constant rate counted in frames, so no rounding adds up). */
class OutputLength {
  private frames = 0;
  private sec = 0;
  constructor(private readonly clock: FrameClock) {}
  add(r: FrameRange): void {
    this.frames += r.end - r.start;
    this.sec += clockTime(this.clock, r.end) - clockTime(this.clock, r.start);
  }
  get seconds(): number {
    return typeof this.clock === 'number' ? this.frames / this.clock : this.sec;
  }
}

export interface FrameRange {
  /** First source frame (display order, inclusive). */
  start: number;
  /** End source frame (exclusive). */
  end: number;
}

export interface PlannedPiece extends FrameRange {
  mode: 'copy' | 'encode';
  /** Keyframe the decoder must start from (encode pieces: the one at or before `start`). */
  decodeFrom: number;
}

/**
 * Source segments (seconds, play order) to frame ranges: boundaries snap to the nearest frame
 * boundary of the clock (at a constant rate, a segment keeps frames round(start*fps) ..
 * round(end*fps)-1). Empty ranges are dropped.
 */
export function segmentsToFrameRanges(segments: ReadonlyArray<{ start: number; end: number }>, clock: FrameClock, frameCount: number): FrameRange[] {
  const out: FrameRange[] = [];
  const grid = gridOf(clock);
  for (const s of segments) {
    const start = clampInt(nearestBoundary(grid, s.start), 0, frameCount);
    const end = clampInt(nearestBoundary(grid, s.end), 0, frameCount);
    if (end > start) out.push({ start, end });
  }
  return out;
}

function clampInt(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** Index of the last element <= x in an ascending array, or -1. */
function floorIndex(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/**
 * Splits each frame range into copy pieces (whole GOPs: from a keyframe up to the next keyframe
 * that is still inside the range) and encode pieces (the partial GOP before the first keyframe in
 * the range, and after the last one). `keyframes` are display indices, ascending, and must
 * include 0. With closed GOPs, the packets of [k1, k2) in decode order are exactly the frames
 * shown in [k1, k2), so a copy piece is exact. `closedEnds` (VideoTrackInfo) lets the part after
 * the last keyframe be copied too, up to the last point where the GOP's packets so far show
 * exactly its first frames; only the few frames after that point are re-encoded. Open GOPs
 * (`leading`, per keyframe): a keyframe's leading pictures are shown before it but decoded after
 * it, so a copy of whole GOPs ends before the next keyframe's leading pictures and those are
 * re-encoded; a copy from a keyframe leaves its own leading pictures out (they belong before it).
 */
export function planSmartPieces(ranges: readonly FrameRange[], keyframes: readonly number[], closedEnds: readonly number[] = [], leading: readonly number[] = []): PlannedPiece[] {
  if (keyframes.length === 0 || keyframes[0] !== 0) throw new Error('the first frame must be a keyframe');
  const pieces: PlannedPiece[] = [];
  const encode = (start: number, end: number): void => {
    if (end <= start) return;
    const k = keyframes[floorIndex(keyframes, start)]!;
    // From a keyframe, the longest run of the GOP that shows exactly its own frames is copied:
    // only the frames after it are re-encoded.
    if (k === start) {
      const e = closedEnds[floorIndex(closedEnds, end)];
      if (e !== undefined && e > start) {
        pieces.push({ mode: 'copy', start, end: e, decodeFrom: start });
        if (e < end) pieces.push({ mode: 'encode', start: e, end, decodeFrom: k });
        return;
      }
    }
    pieces.push({ mode: 'encode', start, end, decodeFrom: k });
  };
  for (const r of ranges) {
    const iFirst = floorIndex(keyframes, r.start - 1) + 1; // first keyframe >= start
    const iLast = floorIndex(keyframes, r.end); // last keyframe <= end
    const k1 = keyframes[iFirst];
    const k2 = iLast >= 0 ? keyframes[iLast] : undefined;
    if (k1 === undefined || k2 === undefined || k1 >= r.end || k2 <= k1) {
      // No whole GOP inside: the head up to the keyframe (if any) and the rest are re-encoded.
      if (k1 !== undefined && k1 > r.start && k1 < r.end) {
        encode(r.start, k1);
        encode(k1, r.end);
      } else encode(r.start, r.end);
      continue;
    }
    encode(r.start, k1);
    const copyEnd = k2 - (leading[iLast] ?? 0);
    if (copyEnd > k1) {
      pieces.push({ mode: 'copy', start: k1, end: copyEnd, decodeFrom: k1 });
      encode(copyEnd, k2);
      encode(k2, r.end);
    } else encode(k1, r.end);
  }
  return pieces;
}

export interface SmartPlanStats {
  totalFrames: number;
  encodedFrames: number;
  copiedFrames: number;
  /** Share of output frames re-encoded, 0..1. */
  encodedShare: number;
}

export function planStats(pieces: readonly PlannedPiece[]): SmartPlanStats {
  let enc = 0;
  let copy = 0;
  for (const p of pieces) {
    if (p.mode === 'encode') enc += p.end - p.start;
    else copy += p.end - p.start;
  }
  const total = enc + copy;
  return { totalFrames: total, encodedFrames: enc, copiedFrames: copy, encodedShare: total === 0 ? 0 : enc / total };
}

export interface SampleRange {
  /** First source sample (inclusive), counted from the first audible sample. */
  start: number;
  /** End sample (exclusive). */
  end: number;
}

/**
 * Sample-exact audio ranges for frame ranges: the boundaries are the frame boundaries converted to
 * samples and rounded, both for the source positions and (implicitly, as running sums) for the
 * output, so audio and video never drift apart by more than one sample.
 */
export function frameRangesToSampleRanges(ranges: readonly FrameRange[], clock: FrameClock, sampleRate: number): SampleRange[] {
  const out: SampleRange[] = [];
  const length = new OutputLength(clock);
  let outSamples = 0;
  for (const r of ranges) {
    length.add(r);
    const wantedOutEnd = Math.round(length.seconds * sampleRate);
    const start = Math.round(clockTime(clock, r.start) * sampleRate);
    out.push({ start, end: start + wantedOutEnd - outSamples });
    outSamples = wantedOutEnd;
  }
  return out;
}

export interface PacketRange {
  /** Index of the first source packet (in the ascending pts list). */
  first: number;
  /** Number of packets. */
  count: number;
}

/** Copied audio of an edit: where it starts on the output's timeline, and the packets of each range. */
export interface PacketPlan {
  /**
   * Seconds of silence before the first packet (an offset edit): the source's audio starts this
   * long after the first kept frame (a phone's late audio). 0 when it starts at or before it.
   */
  startSec: number;
  ranges: PacketRange[];
  /** Packets the whole edit's video length needs after `startSec` (the ranges may get fewer when the audio ends early). */
  wantedPackets: number;
}

/**
 * Audio packets to stream-copy for frame ranges, for codecs with fixed-size packets (AAC: 1024
 * samples). Each range takes as many packets as keep the running output audio length within half
 * a packet of the running video length, and starts at the source packet that best lines up with
 * where its audio will play: the packet nearest to (first frame's time + how far the output audio
 * runs ahead of the output video at that point). So every sample plays within half a packet of
 * its frame, however many cuts there are. Audio that starts more than half a packet after the
 * first kept frame starts as late in the output (`startSec`), instead of playing early.
 */
export function frameRangesToPacketPlan(
  ranges: readonly FrameRange[],
  clock: FrameClock,
  packetStartsSec: readonly number[],
  packetSec: number,
): PacketPlan {
  const out: PacketRange[] = [];
  const firstKept = ranges[0] ? clockTime(clock, ranges[0].start) : 0;
  const late = packetStartsSec.length > 0 ? packetStartsSec[0]! - firstKept : 0;
  const startSec = late > packetSec / 2 ? late : 0;
  const length = new OutputLength(clock);
  let outPackets = 0;
  for (const r of ranges) {
    const lead = startSec + outPackets * packetSec - length.seconds;
    length.add(r);
    const wanted = Math.max(0, Math.round((length.seconds - startSec) / packetSec));
    const count = Math.max(0, wanted - outPackets);
    const t = clockTime(clock, r.start) + lead;
    let first = floorIndex(packetStartsSec, t);
    if (first < 0) first = 0;
    else if (first + 1 < packetStartsSec.length && Math.abs(packetStartsSec[first + 1]! - t) < Math.abs(packetStartsSec[first]! - t)) first += 1;
    const available = Math.max(0, packetStartsSec.length - first);
    out.push({ first, count: Math.min(count, available) });
    outPackets += count;
  }
  return { startSec, ranges: out, wantedPackets: outPackets };
}
