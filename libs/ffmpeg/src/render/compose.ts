/**
 * The smart render's output written directly as an MP4: its samples are byte ranges of the
 * original (whole GOPs kept as they are), of re-encoded pieces, or new audio packets; the movie
 * box is built from where each sample lands. No pass of ffmpeg over the whole file: the output is
 * the index, then the original's bytes streamed in order (docs/adr/0021).
 *
 * Rules:
 * - a copied run keeps the original's bytes between its samples (the audio interleaved there), so
 *   audio packets that lie in it are referenced in place and not written again;
 * - when re-encoded pieces bring their own parameter sets, every sync sample carries its run's
 *   sets in band (a seek may land on any of them after the decoder saw other sets), and the sample
 *   entry says so: `hev1`/`avc3` (in-band sets allowed) instead of `hvc1`/`avc1`;
 * - each frame is shown at its own time (`frameTimes`: a variable rate stays variable); decode
 *   times are the display times in order, presentation offsets the reordering plus one shared
 *   delay, which the video's edit list removes, so the output starts at frame 0.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { fileTypeBox, mediaDataHeader, movieBox, sampleEntryFor, type Mp4Track, type OutTrack } from '../mp4';

/** A sample's bytes in a file. */
export interface SampleRef {
  file: string;
  offset: number;
  size: number;
}

/** A run of video samples in decode order: from the original, or a re-encoded piece. */
export interface VideoRun {
  samples: SampleRef[];
  /** Display rank of each sample within the run (0..n-1). */
  ranks: number[];
  sync: boolean[];
  /** Parameter sets (4-byte length prefixed NAL units) this run decodes with. */
  params: Buffer;
}

export interface ComposeVideo {
  track: Pick<Mp4Track, 'timescale' | 'language' | 'stsd' | 'width' | 'height'> & Partial<Pick<Mp4Track, 'matrix'>>;
  /** Parameter sets of `track.stsd` (in force at the start). */
  params: Buffer;
  /** When each output frame starts (ticks, display order), then where the last ends. */
  frameTimes: ArrayLike<number>;
  runs: VideoRun[];
}

export interface ComposeAudio {
  track: Pick<Mp4Track, 'timescale' | 'language' | 'stsd'>;
  /** Samples in play order: in a file, or new bytes. */
  samples: Array<SampleRef | Buffer>;
  durations: Uint32Array;
  editMediaTime: number;
  /** Seconds before the audio's first sample plays (it starts after the video). */
  startSec?: number;
}

/** A span of output bytes: in memory, or [start, end) of a file. */
export type Span = Buffer | { file: string; start: number; end: number };

export interface Composition {
  size: number;
  spans: Span[];
  /** Bytes besides the copied video runs (index, parameter sets, first samples re-sent, audio not inside a run). */
  newBytes: number;
}

/** Samples of one file this close (bytes) are copied as one range, with what lies between them. */
const MAX_GAP_BYTES = 1024 * 1024;

const isRef = (s: SampleRef | Buffer): s is SampleRef => !Buffer.isBuffer(s);

/** Lays out the samples; offsets are relative to the media data payload. */
export function compose(video: ComposeVideo, audio: ComposeAudio | null): Composition {
  const payload: Span[] = [];
  let pos = 0;
  let newBytes = 0;
  const push = (s: Span, fresh = true): number => {
    const at = pos;
    payload.push(s);
    const n = Buffer.isBuffer(s) ? s.length : s.end - s.start;
    if (fresh) newBytes += n;
    pos += n;
    return at;
  };
  // ranges copied from files, to find audio already inside them
  const copied = new CopiedRanges();

  const aAt: number[] = [];
  const aSizes: number[] = [];
  let aNext = 0;
  let aTime = 0;
  const vSizes: number[] = [];
  const vAt: number[] = [];
  const vRank: number[] = [];
  const vSync: boolean[] = [];
  // A seek lands on any sync sample with whatever parameter sets the decoder saw last: once the
  // output mixes sets, every sync sample carries its own in band.
  const mixed = video.runs.some((r) => !r.params.equals(video.params));
  let frame = 0;
  for (const run of video.runs) {
    const base = frame;
    run.samples.forEach((s, i) => {
      vRank.push(base + run.ranks[i]!);
      vSync.push(run.sync[i]!);
    });
    let i = 0;
    while (i < run.samples.length) {
      const a = run.samples[i]!;
      // the sample's parameter sets go right before it: the sample is then both, contiguous
      const prefixed = mixed && run.sync[i]!;
      const prefixAt = prefixed ? push(run.params) : -1;
      let j = i + 1;
      while (j < run.samples.length && !(mixed && run.sync[j])) {
        const p = run.samples[j - 1]!;
        const q = run.samples[j]!;
        if (q.file !== a.file || q.offset < p.offset + p.size || q.offset - (p.offset + p.size) > MAX_GAP_BYTES) break;
        j++;
      }
      const last = run.samples[j - 1]!;
      const span = { file: a.file, start: a.offset, end: last.offset + last.size };
      const at = push(span, false);
      copied.add({ ...span, at });
      for (let k = i; k < j; k++) {
        const s = run.samples[k]!;
        vAt.push(k === i && prefixed ? prefixAt : at + s.offset - a.offset);
        vSizes.push(s.size + (k === i && prefixed ? run.params.length : 0));
      }
      i = j;
    }
    frame += run.samples.length;
    // new audio of this run's time goes right after it
    if (audio) placeAudioUntil(video.frameTimes[frame]! / video.track.timescale);
  }

  function placeAudioUntil(sec: number): void {
    if (!audio) return;
    let pending: Buffer[] = [];
    let pendingRef: { file: string; start: number; end: number; indices: number[] } | null = null;
    let pendingIdx: number[] = [];
    const flushBuffers = () => {
      if (pending.length === 0) return;
      let at = push(Buffer.concat(pending));
      for (const [k, idx] of pendingIdx.entries()) {
        aAt[idx] = at;
        at += pending[k]!.length;
      }
      pending = [];
      pendingIdx = [];
    };
    const flushRef = () => {
      if (!pendingRef) return;
      let at = push({ file: pendingRef.file, start: pendingRef.start, end: pendingRef.end });
      for (const idx of pendingRef.indices) {
        aAt[idx] = at;
        at += aSizes[idx]!;
      }
      pendingRef = null;
    };
    while (aNext < audio.samples.length && aTime - audio.editMediaTime + (audio.startSec ?? 0) * audio.track.timescale < sec * audio.track.timescale) {
      const idx = aNext++;
      const s = audio.samples[idx]!;
      aTime += audio.durations[idx]!;
      aSizes[idx] = isRef(s) ? s.size : s.length;
      if (!isRef(s)) {
        flushRef();
        pending.push(s);
        pendingIdx.push(idx);
        continue;
      }
      const inside = copied.containing(s);
      if (inside) {
        aAt[idx] = inside.at + s.offset - inside.start;
        continue;
      }
      flushBuffers();
      if (pendingRef && pendingRef.file === s.file && pendingRef.end === s.offset) {
        pendingRef.end += s.size;
        pendingRef.indices.push(idx);
      } else {
        flushRef();
        pendingRef = { file: s.file, start: s.offset, end: s.offset + s.size, indices: [idx] };
      }
    }
    flushBuffers();
    flushRef();
  }
  if (audio) placeAudioUntil(Infinity);

  // decode time of sample d: the d-th display time; presentation offsets: one shared delay keeps
  // every one of them >= 0
  const times = video.frameTimes;
  if (times.length !== vRank.length + 1) throw new Error(`${times.length} frame times for ${vRank.length} frames`);
  let delay = 0;
  vRank.forEach((r, d) => (delay = Math.max(delay, times[d]! - times[r]!)));
  const ctts = Int32Array.from(vRank, (r, d) => times[r]! + delay - times[d]!);
  const durations = Uint32Array.from(vRank, (_, d) => times[d + 1]! - times[d]!);
  // sets in band: pieces brought their own, or the source's entry already said so (hev1/avc3)
  const stsd = sampleEntryFor(video.track.stsd, mixed || /^(hev1|avc3)$/.test(video.track.stsd.toString('latin1', 20, 24)));
  const vTrack = (base: number): OutTrack => ({
    handler: 'vide',
    timescale: video.track.timescale,
    language: video.track.language,
    stsd,
    width: video.track.width,
    height: video.track.height,
    ...(video.track.matrix ? { matrix: video.track.matrix } : {}),
    sizes: Uint32Array.from(vSizes),
    durations,
    ctts,
    sync: vSync.every(Boolean) ? null : Uint8Array.from(vSync, (x) => (x ? 1 : 0)),
    offsets: Float64Array.from(vAt, (a) => base + a),
    editMediaTime: delay,
  });
  const aTrack = (base: number): OutTrack | null =>
    audio && audio.samples.length > 0
      ? {
          handler: 'soun',
          timescale: audio.track.timescale,
          language: audio.track.language,
          stsd: audio.track.stsd,
          width: 0,
          height: 0,
          sizes: Uint32Array.from(aSizes),
          durations: audio.durations,
          ctts: null,
          sync: null,
          offsets: Float64Array.from(aAt, (a) => base + a),
          editMediaTime: audio.editMediaTime,
          emptyEditSec: audio.startSec ?? 0,
        }
      : null;
  const ftyp = fileTypeBox(stsd.toString('latin1', 20, 24));
  // the index comes first; its size depends on the offsets only through their width (32/64 bits)
  let moovSize = 0;
  let head: Buffer = Buffer.alloc(0);
  for (let pass = 0; pass < 3; pass++) {
    const base = ftyp.length + moovSize + 16;
    const tracks = [vTrack(base), aTrack(base)].filter((t): t is OutTrack => t !== null);
    const moov = movieBox(tracks);
    head = Buffer.concat([ftyp, moov, mediaDataHeader(pos)]);
    if (moov.length === moovSize) break;
    moovSize = moov.length;
  }
  return { size: head.length + pos, spans: [head, ...payload], newBytes: newBytes + head.length };
}

interface CopiedRange {
  file: string;
  start: number;
  end: number;
  /** where the range starts in the media data */
  at: number;
}

/** The file ranges copied so far, per file in order of their start, searched by halving. */
class CopiedRanges {
  private readonly byFile = new Map<string, CopiedRange[]>();

  add(r: CopiedRange): void {
    const list = this.byFile.get(r.file) ?? [];
    this.byFile.set(r.file, list);
    list.splice(this.after(list, r.start), 0, r);
  }

  /**
   * A range holding the whole sample, among the few starting last at or before it (ranges overlap
   * where an edit plays the same source twice); none found: the sample is written again.
   */
  containing(s: SampleRef): CopiedRange | undefined {
    const list = this.byFile.get(s.file);
    if (!list) return undefined;
    const first = this.after(list, s.offset) - 1;
    for (let i = first; i >= 0 && i > first - 8; i--) {
      if (s.offset + s.size <= list[i]!.end) return list[i];
    }
    return undefined;
  }

  /** Index of the first range starting after `offset`. */
  private after(list: readonly CopiedRange[], offset: number): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.start <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Bytes of a composition copied from `file`. */
export function bytesFrom(c: Composition, file: string): number {
  let n = 0;
  for (const s of c.spans) if (!Buffer.isBuffer(s) && s.file === file) n += s.end - s.start;
  return n;
}

/**
 * A render copies each moment of its source once (plus the bytes between a run's samples): more
 * than twice the source's bytes from it means tables that point at the same bytes again and again.
 */
export const MAX_SOURCE_COPIES = 2;

/** Bytes moved per read and write when copying a file range. */
const COPY_CHUNK_BYTES = 4 * 1024 * 1024;

/** Writes a composition to a file, reporting bytes written. */
export async function writeComposition(c: Composition, path: string, o: { signal?: AbortSignal; onBytes?: (written: number) => void } = {}): Promise<void> {
  const out = await open(path, 'w');
  const inputs = new Map<string, FileHandle>();
  const buf = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
  let written = 0;
  const write = async (b: Buffer): Promise<void> => {
    for (let done = 0; done < b.length; ) done += (await out.write(b, done, b.length - done)).bytesWritten;
    written += b.length;
    o.onBytes?.(written);
  };
  try {
    for (const s of c.spans) {
      o.signal?.throwIfAborted();
      if (Buffer.isBuffer(s)) {
        await write(s);
        continue;
      }
      let fh = inputs.get(s.file);
      if (!fh) {
        fh = await open(s.file, 'r');
        inputs.set(s.file, fh);
      }
      for (let at = s.start; at < s.end; ) {
        o.signal?.throwIfAborted();
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, s.end - at), at);
        if (bytesRead === 0) throw new Error(`${s.file} ends before byte ${s.end}`);
        await write(buf.subarray(0, bytesRead));
        at += bytesRead;
      }
    }
  } finally {
    await Promise.all([out.close(), ...[...inputs.values()].map((h) => h.close())]);
  }
  if (written !== c.size) throw new Error(`wrote ${written} bytes of a ${c.size}-byte composition`);
}
