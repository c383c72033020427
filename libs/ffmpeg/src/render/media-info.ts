import { redactUrls } from '../args';
import { FfmpegError } from '../errors';
import { inputArgs, mediaInput, type FfmpegInput } from '../input';
import { assertSelfContainedMovie } from '../movie-check';
import { runProcess } from '../process';
import { streamRotation, type FfprobeJson } from '../probe';

/** A rational number, e.g. a time base 1/15360 or a frame rate 30000/1001. */
export interface Rational {
  num: number;
  den: number;
}

export interface VideoTrackInfo {
  codec: string;
  width: number;
  height: number;
  pixFmt: string | null;
  profile: string | null;
  rotation: number;
  /** Decoder reorder depth ffprobe reports (has_b_frames). */
  hasBFrames: number;
  timeBase: Rational;
  /** Presentation timestamps of every frame in display order, in timeBase ticks. */
  framePts: number[];
  /** Display-order indices of keyframes (sync samples), ascending. */
  keyframes: number[];
  /** Frame duration in timeBase ticks when every frame lasts the same, else null (VFR). */
  frameTicks: number | null;
  /** True when no frame after a keyframe (in decode order) is shown before it: every GOP decodes on its own. */
  closedGops: boolean;
  /**
   * Display indices e (ascending) where the packets from the keyframe k before e, taken in decode
   * order and leaving out its leading pictures, are exactly the frames k..e-1: that run of a GOP
   * can be stream-copied on its own.
   */
  closedEnds: number[];
  /**
   * Open GOPs: for each keyframe (as `keyframes`), how many leading pictures it has (decoded after
   * it, shown before it, referring to the GOP before). Null when some keyframe's leading pictures
   * are not the frames shown right before it (then whole GOPs cannot be copied exactly).
   */
  leading: number[] | null;
  colorRange: string | null;
  colorSpace: string | null;
  colorPrimaries: string | null;
  colorTransfer: string | null;
  bitRate: number | null;
}

export interface AudioTrackInfo {
  codec: string;
  sampleRate: number;
  channels: number;
  bitRate: number | null;
  timeBase: Rational;
  /** Presentation timestamps of every packet in timeBase ticks, ascending. */
  packetPts: number[];
  /** Ticks per packet when constant (AAC: 1024 samples), else null. */
  packetTicks: number | null;
}

export interface RenderMediaInfo {
  formatName: string;
  /** Format start time in seconds (what `-ss 0` means). */
  startTime: number;
  durationSec: number | null;
  video: VideoTrackInfo | null;
  audio: AudioTrackInfo | null;
}

export interface ReadMediaInfoOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  binary?: string;
}

const MAX_PROBE_OUTPUT = 256 * 1024 * 1024;

/** One ffprobe pass over a pinned input (its -f and whitelists come last, with its -i). */
async function ffprobe(args: string[], input: FfmpegInput, o: ReadMediaInfoOptions): Promise<string> {
  const binary = o.binary ?? 'ffprobe';
  const out = await runProcess({
    binary,
    args: ['-hide_banner', '-v', 'error', ...args, ...inputArgs(input)],
    timeoutMs: o.timeoutMs ?? 120_000,
    signal: o.signal,
    maxStdoutBytes: MAX_PROBE_OUTPUT,
  });
  if (out.exitCode !== 0) {
    throw new FfmpegError(`ffprobe exited with code ${out.exitCode}: ${out.stderrTail.trim().split('\n').slice(-2).join(' | ')}`, {
      binary,
      args,
      exitCode: out.exitCode,
      signal: out.signal,
      stderrTail: out.stderrTail,
      durationMs: out.durationMs,
    });
  }
  return out.stdout.toString('utf8');
}

export function parseRationalParts(v: string | undefined): Rational | null {
  const m = /^(\d+)\/(\d+)$/.exec(v?.trim() ?? '');
  if (!m) return null;
  const num = Number(m[1]);
  const den = Number(m[2]);
  return num > 0 && den > 0 ? { num, den } : null;
}

interface PacketRow {
  pts: number;
  dts: number;
  key: boolean;
}

/** Parses `ffprobe -show_entries packet=pts,dts,flags -of csv=p=0` lines. Packets without a pts are skipped. */
export function parsePacketCsv(text: string): PacketRow[] {
  const rows: PacketRow[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [pts, dts, flags] = line.split(',');
    const p = Number(pts);
    if (pts === undefined || pts === '' || pts === 'N/A' || !Number.isFinite(p)) continue;
    const d = Number(dts);
    rows.push({ pts: p, dts: Number.isFinite(d) && dts !== '' ? d : p, key: (flags ?? '').includes('K') });
  }
  return rows;
}

/**
 * Frame structure of a video track from its packets in decode order: display-ordered pts,
 * keyframe display indices, constant frame duration (or null) and whether GOPs are closed.
 */
export function analyseVideoPackets(packets: PacketRow[]): Pick<VideoTrackInfo, 'framePts' | 'keyframes' | 'frameTicks' | 'closedGops' | 'closedEnds' | 'leading'> {
  const order = packets.map((p, i) => ({ pts: p.pts, key: p.key, decodeIndex: i }));
  const sorted = [...order].sort((a, b) => a.pts - b.pts || a.decodeIndex - b.decodeIndex);
  const framePts = sorted.map((f) => f.pts);
  const keyframes: number[] = [];
  sorted.forEach((f, i) => {
    if (f.key) keyframes.push(i);
  });
  let frameTicks: number | null = null;
  if (framePts.length >= 2) {
    const d = framePts[1]! - framePts[0]!;
    frameTicks = d > 0 && framePts.every((p, i) => i === 0 || Math.abs(p - framePts[i - 1]! - d) <= 0) ? d : null;
  }
  // Open GOP: some packet decoded after a keyframe is displayed before it (leading pictures).
  let closedGops = true;
  let lastKeyPts = -Infinity;
  for (const p of packets) {
    if (p.key) lastKeyPts = p.pts;
    else if (p.pts < lastKeyPts) {
      closedGops = false;
      break;
    }
  }
  // Runs of each GOP, in decode order and without its leading pictures, that hold exactly the
  // frames they show; and each keyframe's leading pictures, which must be the frames before it.
  const displayIndex = new Array<number>(order.length);
  sorted.forEach((f, i) => {
    displayIndex[f.decodeIndex] = i;
  });
  const closedEnds: number[] = [];
  const leadCount = new Map<number, number>();
  const leadMin = new Map<number, number>();
  let gopStart = -1;
  let count = 0;
  let maxSeen = -1;
  packets.forEach((p, i) => {
    const d = displayIndex[i]!;
    if (p.key) {
      gopStart = d;
      count = 0;
      maxSeen = d - 1;
      leadCount.set(d, 0);
    }
    if (gopStart < 0) return;
    if (d < gopStart) {
      // a leading picture (open GOP): shown with the GOP before, left out of this GOP's runs
      leadCount.set(gopStart, leadCount.get(gopStart)! + 1);
      leadMin.set(gopStart, Math.min(leadMin.get(gopStart) ?? d, d));
      return;
    }
    count++;
    maxSeen = Math.max(maxSeen, d);
    if (maxSeen - gopStart + 1 === count) closedEnds.push(maxSeen + 1);
  });
  closedEnds.sort((a, b) => a - b);
  const leading = keyframes.map((k) => leadCount.get(k) ?? 0);
  const contiguous = keyframes.every((k, i) => leading[i] === 0 || leadMin.get(k) === k - leading[i]!);
  return { framePts, keyframes, frameTicks, closedGops, closedEnds, leading: contiguous ? leading : null };
}

/**
 * Everything the renderer needs to know about a source: container, start time, and for the first
 * video and audio streams their parameters and every packet's timestamps (two ffprobe passes over
 * the index: about 0.2 s for ten minutes of 30 fps video).
 */
export async function readRenderMediaInfo(source: FfmpegInput | string, o: ReadMediaInfoOptions = {}): Promise<RenderMediaInfo> {
  // The source is untrusted media: MP4/MOV only, its boxes checked before ffprobe reads it.
  const input = typeof source === 'string' ? mediaInput(source) : source;
  if (input.format === 'mov') {
    await assertSelfContainedMovie(input, redactUrls(typeof source === 'string' ? source : source.url), { signal: o.signal, timeoutMs: o.timeoutMs ?? 120_000 });
  }
  const [metaText, videoText, audioText] = await Promise.all([
    ffprobe(['-print_format', 'json', '-show_format', '-show_streams'], input, o),
    ffprobe(['-select_streams', 'v:0', '-show_entries', 'packet=pts,dts,flags', '-of', 'csv=p=0'], input, o),
    ffprobe(['-select_streams', 'a:0', '-show_entries', 'packet=pts,dts,flags', '-of', 'csv=p=0'], input, o),
  ]);
  type Stream = NonNullable<FfprobeJson['streams']>[number] & {
    has_b_frames?: number;
    time_base?: string;
    color_range?: string;
    color_space?: string;
    color_primaries?: string;
    color_transfer?: string;
    bit_rate?: string;
    start_time?: string;
  };
  const meta = JSON.parse(metaText) as { format?: FfprobeJson['format'] & { start_time?: string }; streams?: Stream[] };
  const streams = meta.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.['attached_pic']);
  const a = streams.find((s) => s.codec_type === 'audio');
  let video: VideoTrackInfo | null = null;
  if (v) {
    const tb = parseRationalParts(v.time_base);
    const packets = parsePacketCsv(videoText);
    if (tb && packets.length > 0) {
      video = {
        codec: v.codec_name ?? 'unknown',
        width: v.width ?? 0,
        height: v.height ?? 0,
        pixFmt: v.pix_fmt ?? null,
        profile: v.profile ?? null,
        rotation: streamRotation(v),
        hasBFrames: v.has_b_frames ?? 0,
        timeBase: tb,
        ...analyseVideoPackets(packets),
        colorRange: known(v.color_range),
        colorSpace: known(v.color_space),
        colorPrimaries: known(v.color_primaries),
        colorTransfer: known(v.color_transfer),
        bitRate: v.bit_rate ? Number(v.bit_rate) || null : null,
      };
    }
  }
  let audio: AudioTrackInfo | null = null;
  if (a) {
    const tb = parseRationalParts(a.time_base);
    const packetPts = parsePacketCsv(audioText)
      .map((p) => p.pts)
      .sort((x, y) => x - y);
    if (tb && packetPts.length > 0) {
      const d = packetPts.length >= 2 ? packetPts[1]! - packetPts[0]! : null;
      const constant = d !== null && d > 0 && packetPts.every((p, i) => i === 0 || p - packetPts[i - 1]! === d);
      audio = {
        codec: a.codec_name ?? 'unknown',
        sampleRate: Number(a.sample_rate) || 48000,
        channels: a.channels ?? 2,
        bitRate: a.bit_rate ? Number(a.bit_rate) || null : null,
        timeBase: tb,
        packetPts,
        packetTicks: constant ? d : null,
      };
    }
  }
  return {
    formatName: meta.format?.format_name ?? 'unknown',
    startTime: Number(meta.format?.start_time ?? 0) || 0,
    durationSec: meta.format?.duration !== undefined ? Number(meta.format.duration) || null : null,
    video,
    audio,
  };
}

function known(v: string | undefined): string | null {
  return v && v !== 'unknown' ? v : null;
}
