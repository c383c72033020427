/**
 * The one sample model of our MP4 code: a track's samples (where each one's bytes are, how long it
 * lasts, when it is shown, whether it is a sync sample) with the boxes copied as they are (sample
 * description, sizes). Read from a movie box here, written by write.ts, composed by the renderer.
 *
 * Reading is bounded by construction (budget.ts): every table is walked once, in order; counts are
 * checked against the box that holds them and against the limits before anything is allocated;
 * chunks of all tracks must not overlap and lie inside the file. Pure.
 */
import { Mp4BoundsError, Mp4UnsupportedError, type Steps, type Work } from './budget';
import { childBoxes, fourcc, parseBoxHeader, u32, type ChildBox } from './boxes';

export interface Mp4Track {
  trackId: number;
  handler: string;
  timescale: number;
  /** mdhd language, packed as stored. */
  language: number;
  /** The whole stsd box, header included. */
  stsd: Buffer;
  /** Sample entry type of the first description (avc1, hvc1, mp4a...). */
  entryType: string;
  /** Presentation size from tkhd (16.16 fixed point, as stored), 0 for audio. */
  width: number;
  height: number;
  /** tkhd's transformation matrix (36 bytes, as stored): a phone's rotation. */
  matrix: Buffer;
  /** The first edit's media time (ticks), or 0 without an edit list. */
  editMediaTime: number;
  count: number;
  /** Where each sample's bytes start in the file. */
  offsets: Float64Array;
  sizes: Uint32Array;
  durations: Uint32Array;
  /** Composition offset of each sample (pts - dts, ticks); null: shown as decoded. */
  ctts: Int32Array | null;
  /** null: every sample is a sync sample. */
  sync: Uint8Array | null;
  /** Sample description index (1-based) of each sample; null: all use the first. */
  descriptions: Uint16Array | null;
}

export interface MovieTables {
  tracks: Mp4Track[];
}

const u64 = (b: Uint8Array, at: number): number => u32(b, at) * 2 ** 32 + u32(b, at + 4);
const i32 = (b: Uint8Array, at: number): number => u32(b, at) | 0;

/** The children of a box, listed once, by type (first of each). */
function kids(b: Buffer, box: ChildBox, work: Work): Map<string, ChildBox> {
  const m = new Map<string, ChildBox>();
  for (const c of childBoxes(b, box.payloadStart, box.end, work)) if (!m.has(c.type)) m.set(c.type, c);
  return m;
}

function need(m: Map<string, ChildBox>, type: string, parent: string): ChildBox {
  const c = m.get(type);
  if (!c) throw new Mp4UnsupportedError(`the movie has no ${type} box in ${parent}`);
  return c;
}

/** A full box's table after `skip` bytes of fields: where its entries start and how many, checked against the box and the limits. */
function entries(b: Buffer, box: ChildBox, entrySize: number, work: Work, skip = 0): { at: number; count: number } {
  const at = box.payloadStart + 4 + skip;
  if (at + 4 > box.end) throw new Mp4UnsupportedError(`the ${box.type} box is too short`);
  const count = u32(b, at);
  if (count > (box.end - at - 4) / entrySize) throw new Mp4UnsupportedError(`the ${box.type} box is shorter than its ${count} entries`);
  work.countEntries(count, box.type);
  return { at: at + 4, count };
}

/**
 * Byte ranges of every chunk of every track, to check they lie inside the file and apart. Each
 * track's list is cut into runs in file order (most tracks are one run; our own renders place some
 * audio in place, out of order), and the runs are merged by their next start (a heap): every range
 * is looked at once, in O(n log runs), yielding between slices.
 */
class ChunkSpans {
  private readonly tracks: Array<{ starts: Float64Array; ends: Float64Array; n: number }> = [];

  startTrack(chunks: number): void {
    this.tracks.push({ starts: new Float64Array(chunks), ends: new Float64Array(chunks), n: 0 });
  }

  add(start: number, end: number): void {
    if (end <= start) return;
    const t = this.tracks[this.tracks.length - 1]!;
    t.starts[t.n] = start;
    t.ends[t.n++] = end;
  }

  *check(fileSize: number, work: Work): Steps<void> {
    // runs: [track, from, to) of each list's stretches in file order
    const runTrack: number[] = [];
    const runAt: number[] = [];
    const runTo: number[] = [];
    this.tracks.forEach((t, k) => {
      for (let i = 0; i < t.n; i++) {
        if (i === 0 || t.starts[i]! < t.starts[i - 1]!) {
          if (runTrack.length > 0 && runTrack[runTrack.length - 1] === k) runTo[runTo.length - 1] = i;
          runTrack.push(k);
          runAt.push(i);
          runTo.push(t.n);
        }
      }
    });
    const key = (r: number): number => this.tracks[runTrack[r]!]!.starts[runAt[r]!]!;
    const heap = Array.from(runTrack.keys());
    const down = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1;
        const m = l + 1 < heap.length && key(heap[l + 1]!) < key(heap[l]!) ? l + 1 : l;
        if (l >= heap.length || key(heap[i]!) <= key(heap[m]!)) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let lastEnd = 0;
    while (heap.length > 0) {
      const r = heap[0]!;
      const t = this.tracks[runTrack[r]!]!;
      const i = runAt[r]!;
      if (t.starts[i]! < lastEnd) throw new Mp4BoundsError('samples overlap each other in the file');
      lastEnd = t.ends[i]!;
      if (lastEnd > fileSize) throw new Mp4UnsupportedError('a sample lies beyond the end of the file');
      if (++runAt[r]! < runTo[r]!) down(0);
      else {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
        down(0);
      }
      if (work.tick(8)) yield;
    }
  }
}

function* parseTrack(b: Buffer, trak: ChildBox, fileSize: number, work: Work, spans: ChunkSpans): Steps<Mp4Track> {
  const t = kids(b, trak, work);
  const tkhd = need(t, 'tkhd', 'trak');
  const tv = b[tkhd.payloadStart]!;
  if (tkhd.end - tkhd.payloadStart < (tv === 1 ? 92 : 80)) throw new Mp4UnsupportedError('the tkhd box is too short');
  const trackId = u32(b, tkhd.payloadStart + (tv === 1 ? 20 : 12));
  const width = u32(b, tkhd.end - 8);
  const height = u32(b, tkhd.end - 4);
  const matrix = Buffer.from(b.subarray(tkhd.end - 44, tkhd.end - 8));
  const mdiaBox = need(t, 'mdia', 'trak');
  const mdia = kids(b, mdiaBox, work);
  const mdhd = need(mdia, 'mdhd', 'mdia');
  const mv = b[mdhd.payloadStart]!;
  if (mdhd.end - mdhd.payloadStart < (mv === 1 ? 34 : 22)) throw new Mp4UnsupportedError('the mdhd box is too short');
  const timescale = u32(b, mdhd.payloadStart + (mv === 1 ? 20 : 12));
  const language = b.readUInt16BE(mdhd.payloadStart + (mv === 1 ? 32 : 20));
  const hdlr = need(mdia, 'hdlr', 'mdia');
  if (hdlr.end - hdlr.payloadStart < 12) throw new Mp4UnsupportedError('the hdlr box is too short');
  const handler = fourcc(b, hdlr.payloadStart + 8);
  const stbl = kids(b, need(kids(b, need(mdia, 'minf', 'mdia'), work), 'stbl', 'minf'), work);

  let editMediaTime = 0;
  const edts = t.get('edts');
  const elst = edts && kids(b, edts, work).get('elst');
  if (elst) {
    const ev = b[elst.payloadStart]!;
    const { at, count } = entries(b, elst, ev === 1 ? 20 : 12, work);
    for (let i = 0; i < count; i++) {
      const e = at + i * (ev === 1 ? 20 : 12);
      const mediaTime = ev === 1 ? Number(b.readBigInt64BE(e + 8)) : b.readInt32BE(e + 4);
      if (mediaTime >= 0) {
        editMediaTime = mediaTime;
        break;
      }
    }
  }

  const stsdBox = need(stbl, 'stsd', 'stbl');
  if (stsdBox.end - stsdBox.payloadStart < 16 || u32(b, stsdBox.payloadStart + 4) === 0) throw new Mp4UnsupportedError('the stsd box has no sample description');
  const stsd = Buffer.from(b.subarray(stsdBox.start, stsdBox.end));
  const entryType = fourcc(b, stsdBox.payloadStart + 12);

  const stsz = stbl.get('stsz');
  if (!stsz) throw new Mp4UnsupportedError('the movie has no stsz box (compact sample sizes are not read)');
  if (stsz.end - stsz.payloadStart < 12) throw new Mp4UnsupportedError('the stsz box is too short');
  const fixed = u32(b, stsz.payloadStart + 4);
  const count = u32(b, stsz.payloadStart + 8);
  // before anything is allocated: samples of a fixed size must fit the file, a table its box
  if (fixed) work.claimSampleBytes(count * fixed, fileSize);
  else entries(b, stsz, 4, work, 4);
  work.countSamples(count);
  const sizes = new Uint32Array(count);
  if (fixed) sizes.fill(fixed);
  else {
    const at = stsz.payloadStart + 12;
    let sum = 0;
    for (let i = 0; i < count; i++) {
      sum += sizes[i] = u32(b, at + 4 * i);
      if (work.tick()) yield;
    }
    work.claimSampleBytes(sum, fileSize);
  }

  const durations = new Uint32Array(count);
  {
    const { at, count: n } = entries(b, need(stbl, 'stts', 'stbl'), 8, work);
    let s = 0;
    for (let i = 0; i < n && s < count; i++) {
      const run = u32(b, at + 8 * i);
      const delta = u32(b, at + 8 * i + 4);
      const end = Math.min(count, s + run);
      durations.fill(delta, s, end);
      s = end;
      if (work.tick()) yield;
    }
    if (s !== count) throw new Mp4UnsupportedError('the stts box does not cover every sample');
  }

  let ctts: Int32Array | null = null;
  const cttsBox = stbl.get('ctts');
  if (cttsBox) {
    ctts = new Int32Array(count);
    const { at, count: n } = entries(b, cttsBox, 8, work);
    let s = 0;
    for (let i = 0; i < n && s < count; i++) {
      const run = u32(b, at + 8 * i);
      // version 0 is unsigned in the standard, but writers store negative offsets in it too
      const end = Math.min(count, s + run);
      ctts.fill(i32(b, at + 8 * i + 4), s, end);
      s = end;
      if (work.tick()) yield;
    }
  }

  let sync: Uint8Array | null = null;
  const stss = stbl.get('stss');
  if (stss) {
    sync = new Uint8Array(count);
    const { at, count: n } = entries(b, stss, 4, work);
    for (let i = 0; i < n; i++) {
      const s = u32(b, at + 4 * i) - 1;
      if (s >= 0 && s < count) sync[s] = 1;
      if (work.tick()) yield;
    }
  }

  // chunks in order, each entry of stsc in force from its first chunk to the next entry's
  const co64 = stbl.get('co64');
  const stco = co64 ?? need(stbl, 'stco', 'stbl');
  const { at: coAt, count: chunks } = entries(b, stco, co64 ? 8 : 4, work);
  const chunkOffset = (c: number): number => (co64 ? u64(b, coAt + 8 * c) : u32(b, coAt + 4 * c));
  const { at: scAt, count: scN } = entries(b, need(stbl, 'stsc', 'stbl'), 12, work);
  const first = (e: number): number => u32(b, scAt + 12 * e);
  if (count > 0 && (scN === 0 || first(0) !== 1)) throw new Mp4UnsupportedError('the stsc box does not start at the first chunk');
  for (let e = 1; e < scN; e++) {
    if (first(e) <= first(e - 1)) throw new Mp4BoundsError('the stsc entries are out of order');
  }
  spans.startTrack(Math.min(chunks, count));
  const offsets = new Float64Array(count);
  let descriptions: Uint16Array | null = null;
  let s = 0;
  for (let c = 0, e = 0; c < chunks && s < count; c++) {
    while (e + 1 < scN && first(e + 1) <= c + 1) e++;
    const perChunk = u32(b, scAt + 12 * e + 4);
    const desc = u32(b, scAt + 12 * e + 8);
    if (desc !== 1 && descriptions === null) descriptions = new Uint16Array(count).fill(1, 0, s);
    const start = chunkOffset(c);
    let pos = start;
    const end = Math.min(count, s + perChunk);
    for (; s < end; s++) {
      offsets[s] = pos;
      if (descriptions) descriptions[s] = Math.min(desc, 0xffff);
      pos += sizes[s]!;
      if (work.tick()) yield;
    }
    spans.add(start, pos);
    if (work.tick()) yield;
  }
  if (s !== count) throw new Mp4UnsupportedError('the chunk tables do not place every sample');
  return { trackId, handler, timescale, language, stsd, entryType, width, height, matrix, editMediaTime, count, offsets, sizes, durations, ctts, sync, descriptions };
}

/**
 * The tracks of a movie box (its bytes, header included) of a file of `fileSize` bytes.
 * Mp4BoundsError: outside the limits or contradicting itself (refused); Mp4UnsupportedError:
 * what the composer does not read (fragments, compact sizes, samples beyond the end).
 */
export function* parseMovie(moov: Buffer, fileSize: number, work: Work): Steps<MovieTables> {
  const top = parseBoxHeader(moov, moov.length);
  if (!top || top.type !== 'moov') throw new Mp4UnsupportedError('not a moov box');
  const root: ChildBox = { type: 'moov', start: 0, payloadStart: top.headerSize, end: top.size };
  const boxes = childBoxes(moov, root.payloadStart, root.end, work);
  if (boxes.some((c) => c.type === 'mvex')) throw new Mp4UnsupportedError('a fragmented movie');
  const traks = boxes.filter((c) => c.type === 'trak');
  if (traks.length > work.limits.maxTracks) throw new Mp4BoundsError(`the movie has ${traks.length} tracks (at most ${work.limits.maxTracks})`);
  const spans = new ChunkSpans();
  const tracks: Mp4Track[] = [];
  for (const t of traks) tracks.push(yield* parseTrack(moov, t, fileSize, work, spans));
  yield* spans.check(fileSize, work);
  return { tracks };
}
