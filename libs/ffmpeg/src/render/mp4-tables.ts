/**
 * The sample tables of an MP4/MOV file's tracks (where each sample's bytes are, how long it lasts,
 * when it is shown, whether it is a sync sample) and the raw boxes a writer copies as they are
 * (sample description, track header). Pure over the movie box's bytes; `readMovieTables` finds
 * that box in a file. Enough for the composer (compose.ts), not a general MP4 library.
 */
import { open } from 'node:fs/promises';
import { childBoxes, parseBoxHeader, type ChildBox } from '../mp4-boxes';

export interface TrackSamples {
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
  /** The first edit's media time (ticks), or 0 without an edit list. */
  editMediaTime: number;
  count: number;
  offsets: Float64Array;
  sizes: Uint32Array;
  durations: Uint32Array;
  /** Composition offset of each sample (pts - dts), ticks. */
  ctts: Int32Array;
  /** null: every sample is a sync sample. */
  sync: Uint8Array | null;
  /** Sample description index (1-based) of each sample. */
  descriptions: Uint16Array;
}

export interface MovieTables {
  tracks: TrackSamples[];
}

/** More samples than a day of 120 fps video is not a file we compose. */
const MAX_SAMPLES = 12_000_000;

const u32 = (b: Buffer, at: number): number => b.readUInt32BE(at);
const u64 = (b: Buffer, at: number): number => b.readUInt32BE(at) * 2 ** 32 + b.readUInt32BE(at + 4);

const child = (b: Buffer, box: ChildBox, type: string): ChildBox | undefined => childBoxes(b, box.payloadStart, box.end).find((c) => c.type === type);

function need(b: Buffer, box: ChildBox, type: string): ChildBox {
  const c = child(b, box, type);
  if (!c) throw new Error(`the movie has no ${type} box in ${box.type}`);
  return c;
}

/** Entry count of a full box's table after `skip` bytes of fields, checked against the box's size. */
function entries(b: Buffer, box: ChildBox, entrySize: number, skip = 0): { at: number; count: number } {
  const at = box.payloadStart + 4 + skip;
  const count = u32(b, at);
  if (at + 4 + count * entrySize > box.end) throw new Error(`the ${box.type} box is shorter than its entries`);
  return { at: at + 4, count };
}

function parseTrack(b: Buffer, trak: ChildBox): TrackSamples {
  const tkhd = need(b, trak, 'tkhd');
  const tv = b[tkhd.payloadStart]!;
  const trackId = u32(b, tkhd.payloadStart + (tv === 1 ? 20 : 12));
  const width = u32(b, tkhd.end - 8);
  const height = u32(b, tkhd.end - 4);
  const mdia = need(b, trak, 'mdia');
  const mdhd = need(b, mdia, 'mdhd');
  const mv = b[mdhd.payloadStart]!;
  const timescale = u32(b, mdhd.payloadStart + (mv === 1 ? 20 : 12));
  const language = b.readUInt16BE(mdhd.payloadStart + (mv === 1 ? 32 : 20));
  const hdlr = need(b, mdia, 'hdlr');
  const handler = b.toString('latin1', hdlr.payloadStart + 8, hdlr.payloadStart + 12);
  const stbl = need(b, need(b, mdia, 'minf'), 'stbl');

  let editMediaTime = 0;
  const edts = child(b, trak, 'edts');
  const elst = edts && child(b, edts, 'elst');
  if (elst) {
    const ev = b[elst.payloadStart]!;
    const { at, count } = entries(b, elst, ev === 1 ? 20 : 12);
    for (let i = 0; i < count; i++) {
      const e = at + i * (ev === 1 ? 20 : 12);
      const mediaTime = ev === 1 ? Number(b.readBigInt64BE(e + 8)) : b.readInt32BE(e + 4);
      if (mediaTime >= 0) {
        editMediaTime = mediaTime;
        break;
      }
    }
  }

  const stsdBox = need(b, stbl, 'stsd');
  const stsd = Buffer.from(b.subarray(stsdBox.start, stsdBox.end));
  const entryType = b.toString('latin1', stsdBox.payloadStart + 12, stsdBox.payloadStart + 16);

  // sizes
  let sizes: Uint32Array;
  const stsz = child(b, stbl, 'stsz');
  if (stsz) {
    const fixed = u32(b, stsz.payloadStart + 4);
    const count = u32(b, stsz.payloadStart + 8);
    if (count > MAX_SAMPLES) throw new Error(`the track lists ${count} samples`);
    sizes = new Uint32Array(count);
    if (fixed) sizes.fill(fixed);
    else {
      const { at } = entries(b, stsz, 4, 4);
      for (let i = 0; i < count; i++) sizes[i] = u32(b, at + 4 * i);
    }
  } else throw new Error('the movie has no stsz box (compact sample sizes are not read)');
  const count = sizes.length;

  // durations
  const durations = new Uint32Array(count);
  {
    const box = need(b, stbl, 'stts');
    const { at, count: n } = entries(b, box, 8);
    let s = 0;
    for (let i = 0; i < n && s < count; i++) {
      const run = u32(b, at + 8 * i);
      const delta = u32(b, at + 8 * i + 4);
      for (let k = 0; k < run && s < count; k++) durations[s++] = delta;
    }
    if (s !== count) throw new Error('the stts box does not cover every sample');
  }

  const ctts = new Int32Array(count);
  const cttsBox = child(b, stbl, 'ctts');
  if (cttsBox) {
    const { at, count: n } = entries(b, cttsBox, 8);
    let s = 0;
    for (let i = 0; i < n && s < count; i++) {
      const run = u32(b, at + 8 * i);
      // version 0 is unsigned in the standard, but writers store negative offsets in it too
      const off = b.readInt32BE(at + 8 * i + 4);
      for (let k = 0; k < run && s < count; k++) ctts[s++] = off;
    }
  }

  let sync: Uint8Array | null = null;
  const stss = child(b, stbl, 'stss');
  if (stss) {
    sync = new Uint8Array(count);
    const { at, count: n } = entries(b, stss, 4);
    for (let i = 0; i < n; i++) {
      const s = u32(b, at + 4 * i) - 1;
      if (s >= 0 && s < count) sync[s] = 1;
    }
  }

  // chunk offsets, then samples per chunk
  const co64 = child(b, stbl, 'co64');
  const stco = co64 ?? need(b, stbl, 'stco');
  const { at: coAt, count: chunks } = entries(b, stco, co64 ? 8 : 4);
  const chunkOffset = (c: number): number => (co64 ? u64(b, coAt + 8 * c) : u32(b, coAt + 4 * c));
  const stsc = need(b, stbl, 'stsc');
  const { at: scAt, count: scN } = entries(b, stsc, 12);
  const offsets = new Float64Array(count);
  const descriptions = new Uint16Array(count);
  let s = 0;
  for (let e = 0; e < scN; e++) {
    const first = u32(b, scAt + 12 * e) - 1;
    const perChunk = u32(b, scAt + 12 * e + 4);
    const desc = u32(b, scAt + 12 * e + 8);
    const last = e + 1 < scN ? u32(b, scAt + 12 * (e + 1)) - 1 : chunks;
    for (let c = first; c < last && c < chunks; c++) {
      let pos = chunkOffset(c);
      for (let k = 0; k < perChunk && s < count; k++) {
        offsets[s] = pos;
        descriptions[s] = desc;
        pos += sizes[s]!;
        s++;
      }
    }
  }
  if (s !== count) throw new Error('the chunk tables do not place every sample');
  return { trackId, handler, timescale, language, stsd, entryType, width, height, editMediaTime, count, offsets, sizes, durations, ctts, sync, descriptions };
}

/** The tracks of a movie box (its bytes, header included). */
export function parseMovieTables(moov: Buffer): MovieTables {
  const top = parseBoxHeader(moov, moov.length);
  if (!top || top.type !== 'moov') throw new Error('not a moov box');
  const root: ChildBox = { type: 'moov', start: 0, payloadStart: top.headerSize, end: top.size };
  if (child(moov, root, 'mvex')) throw new Error('a fragmented movie');
  const tracks = childBoxes(moov, root.payloadStart, root.end)
    .filter((c) => c.type === 'trak')
    .map((t) => parseTrack(moov, t));
  return { tracks };
}

/** The sample tables of an MP4/MOV file: its top-level boxes are walked to the movie box. */
export async function readMovieTables(path: string, maxMovieBytes = 256 * 1024 * 1024): Promise<MovieTables> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    for (let offset = 0; offset + 8 <= size; ) {
      const head = Buffer.alloc(16);
      await fh.read(head, 0, 16, offset);
      const h = parseBoxHeader(head, size - offset);
      if (!h) break;
      if (h.type === 'moov') {
        if (h.size > maxMovieBytes) throw new Error(`the movie box is larger than ${maxMovieBytes} bytes`);
        const moov = Buffer.alloc(h.size);
        await fh.read(moov, 0, h.size, offset);
        const tables = parseMovieTables(moov);
        for (const t of tables.tracks) {
          for (let i = 0; i < t.count; i++) {
            if (t.offsets[i]! + t.sizes[i]! > size) throw new Error(`a ${t.handler} sample lies beyond the end of the file`);
          }
        }
        return tables;
      }
      offset += h.size;
    }
    throw new Error('moov atom not found');
  } finally {
    await fh.close();
  }
}

/**
 * Parameter-set NAL units (H.264 SPS/PPS, HEVC VPS/SPS/PPS) of a sample description, each with a
 * 4-byte length prefix, ready to put in front of a sample; null when the entry has no avcC/hvcC or
 * its NAL lengths are not 4 bytes.
 */
export function parameterSetsOf(stsd: Buffer): Buffer | null {
  // stsd: full box header (12 + 4 count), then the first entry: 8-byte header, 78 bytes of visual fields
  const entry = parseBoxHeader(stsd.subarray(16), stsd.length - 16);
  if (!entry) return null;
  const boxes = childBoxes(stsd, 16 + 8 + 78, 16 + entry.size);
  const nals: Buffer[] = [];
  /** `n` NAL units stored with 2-byte lengths from `at`, taken with 4-byte lengths; where they end. */
  const take = (at: number, n: number): number => {
    for (let i = 0; i < n; i++) {
      const len = stsd.readUInt16BE(at);
      const p = Buffer.alloc(4);
      p.writeUInt32BE(len);
      nals.push(p, stsd.subarray(at + 2, at + 2 + len));
      at += 2 + len;
    }
    return at;
  };
  const avcC = boxes.find((x) => x.type === 'avcC');
  if (avcC) {
    const p = avcC.payloadStart;
    if ((stsd[p + 4]! & 3) !== 3) return null;
    let at = p + 5;
    for (const mask of [0x1f, 0xff]) at = take(at + 1, stsd[at]! & mask);
    return Buffer.concat(nals);
  }
  const hvcC = boxes.find((x) => x.type === 'hvcC');
  if (hvcC) {
    const p = hvcC.payloadStart;
    if ((stsd[p + 21]! & 3) !== 3) return null;
    const arrays = stsd[p + 22]!;
    let at = p + 23;
    for (let a = 0; a < arrays; a++) at = take(at + 3, stsd.readUInt16BE(at + 1));
    return Buffer.concat(nals);
  }
  return null;
}
