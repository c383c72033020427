/**
 * Writes the file type and movie boxes of an MP4 whose samples the caller has laid out, from the
 * same sample model the reader gives (sample-table.ts): sizes, durations, composition offsets,
 * sync flags and where each sample lands; samples stored back to back form one chunk. Sample
 * descriptions are copied from the tracks they came from. Pure.
 */
import type { Mp4Track } from './sample-table';

/** What the writer needs of a track (its samples' `offsets` are where they land in the output). */
export type OutTrack = Pick<Mp4Track, 'timescale' | 'language' | 'stsd' | 'width' | 'height' | 'offsets' | 'sizes' | 'durations' | 'ctts' | 'sync'> & {
  /** tkhd's matrix (36 bytes); the identity when absent. */
  matrix?: Buffer;
  handler: 'vide' | 'soun';
  /** Presentation starts this far into the media (ticks), e.g. the decoder delay or AAC priming. */
  editMediaTime: number;
  /** Seconds of nothing before the media plays (an empty edit): audio that starts after the video. */
  emptyEditSec?: number;
};

const MOVIE_TIMESCALE = 1000;

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Math.round(n)));
  return b;
};

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

const full = (type: string, version: number, flags: number, ...parts: Buffer[]): Buffer =>
  box(type, u32(((version & 0xff) << 24) | (flags & 0xffffff)), ...parts);

const MATRIX = Buffer.concat([u32(0x10000), u32(0), u32(0), u32(0), u32(0x10000), u32(0), u32(0), u32(0), u32(0x40000000)]);

const big = (...ns: number[]): boolean => ns.some((n) => n > 0xffffffff);

function table(type: string, rows: number[][], widths: number[]): Buffer {
  const b = Buffer.alloc(4 + rows.length * widths.reduce((a, w) => a + w, 0));
  b.writeUInt32BE(rows.length);
  let at = 4;
  for (const row of rows) {
    row.forEach((v, i) => {
      if (widths[i] === 8) b.writeBigUInt64BE(BigInt(v), at);
      else if (v < 0) b.writeInt32BE(v, at);
      else b.writeUInt32BE(v, at);
      at += widths[i]!;
    });
  }
  return full(type, 0, 0, b);
}

/** Run-length rows [count, value] of a sequence. */
function runs(values: ArrayLike<number>): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < values.length; i++) {
    const last = out[out.length - 1];
    if (last && last[1] === values[i]) last[0]!++;
    else out.push([1, values[i]!]);
  }
  return out;
}

/** Consecutive samples stored back to back form one chunk: where each chunk starts and how many it holds. */
export function chunksOf(offsets: ArrayLike<number>, sizes: ArrayLike<number>): { offsets: number[]; samples: number[] } {
  const starts: number[] = [];
  const samples: number[] = [];
  for (let i = 0; i < offsets.length; i++) {
    if (i > 0 && offsets[i] === offsets[i - 1]! + sizes[i - 1]!) samples[samples.length - 1]!++;
    else {
      starts.push(offsets[i]!);
      samples.push(1);
    }
  }
  return { offsets: starts, samples };
}

function sampleTable(t: OutTrack): Buffer {
  const parts = [t.stsd, table('stts', runs(t.durations), [4, 4])];
  if (t.ctts && t.ctts.some((x) => x !== 0)) parts.push(table('ctts', runs(t.ctts), [4, 4]));
  if (t.sync && !t.sync.every((x) => x === 1)) {
    const rows: number[][] = [];
    t.sync.forEach((s, i) => s && rows.push([i + 1]));
    parts.push(table('stss', rows, [4]));
  }
  const sizes = Buffer.alloc(12 + 4 * t.sizes.length);
  sizes.writeUInt32BE(t.sizes.length, 8);
  t.sizes.forEach((s, i) => sizes.writeUInt32BE(s, 12 + 4 * i));
  parts.push(box('stsz', sizes));
  const chunks = chunksOf(t.offsets, t.sizes);
  const stsc: number[][] = [];
  chunks.samples.forEach((n, i) => {
    if (stsc[stsc.length - 1]?.[1] !== n) stsc.push([i + 1, n, 1]);
  });
  parts.push(table('stsc', stsc, [4, 4, 4]));
  const wide = chunks.offsets.some((o) => o > 0xffffffff);
  parts.push(table(wide ? 'co64' : 'stco', chunks.offsets.map((o) => [o]), [wide ? 8 : 4]));
  return box('stbl', ...parts);
}

function trackBox(t: OutTrack, id: number): { trak: Buffer; movieDuration: number } {
  const mediaDuration = t.durations.reduce((a, d) => a + d, 0);
  const shown = Math.max(0, mediaDuration - (t.handler === 'soun' ? t.editMediaTime : 0));
  const shownDuration = Math.round((shown * MOVIE_TIMESCALE) / t.timescale);
  const empty = Math.max(0, Math.round((t.emptyEditSec ?? 0) * MOVIE_TIMESCALE));
  const movieDuration = empty + shownDuration;
  const v1 = big(movieDuration, mediaDuration);
  const time = (n: number) => (v1 ? u64(n) : u32(n));
  const mediaTime = (n: number) => {
    const b = Buffer.alloc(v1 ? 8 : 4);
    if (v1) b.writeBigInt64BE(BigInt(n));
    else b.writeInt32BE(n);
    return b;
  };
  const edit = (duration: number, at: number) => Buffer.concat([time(duration), mediaTime(at), u16(1), u16(0)]);
  const tkhd = full(
    'tkhd', v1 ? 1 : 0, 3,
    time(0), time(0), u32(id), u32(0), time(movieDuration),
    Buffer.alloc(8), u16(0), u16(t.handler === 'soun' ? 1 : 0), u16(t.handler === 'soun' ? 0x100 : 0), u16(0),
    t.matrix?.length === 36 ? t.matrix : MATRIX, u32(t.width), u32(t.height),
  );
  const edits = [...(empty > 0 ? [edit(empty, -1)] : []), ...(empty > 0 || t.editMediaTime > 0 ? [edit(shownDuration, t.editMediaTime)] : [])];
  const edts = edits.length > 0 ? [box('edts', full('elst', v1 ? 1 : 0, 0, u32(edits.length), ...edits))] : [];
  const mdhd = full('mdhd', v1 ? 1 : 0, 0, time(0), time(0), u32(t.timescale), time(mediaDuration), u16(t.language), u16(0));
  const name = t.handler === 'vide' ? 'VideoHandler' : 'SoundHandler';
  const hdlr = full('hdlr', 0, 0, u32(0), Buffer.from(t.handler, 'latin1'), Buffer.alloc(12), Buffer.from(`${name}\0`, 'latin1'));
  const mediaHeader = t.handler === 'vide' ? full('vmhd', 0, 1, Buffer.alloc(8)) : full('smhd', 0, 0, Buffer.alloc(4));
  const dinf = box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1)));
  const minf = box('minf', mediaHeader, dinf, sampleTable(t));
  return { trak: box('trak', tkhd, ...edts, box('mdia', mdhd, hdlr, minf)), movieDuration };
}

/** ftyp for an MP4 holding these tracks. */
export function fileTypeBox(videoEntry: string): Buffer {
  const brands = ['isom', 'iso2', videoEntry === 'hvc1' || videoEntry === 'hev1' ? 'hvc1' : 'avc1', 'mp41'];
  return box('ftyp', Buffer.from('isom', 'latin1'), u32(512), ...brands.map((b) => Buffer.from(b, 'latin1')));
}

/** The movie box of these tracks (numbered from 1 in order). */
export function movieBox(tracks: readonly OutTrack[]): Buffer {
  const traks = tracks.map((t, i) => trackBox(t, i + 1));
  const duration = Math.max(0, ...traks.map((t) => t.movieDuration));
  const v1 = big(duration);
  const time = (n: number) => (v1 ? u64(n) : u32(n));
  const mvhd = full(
    'mvhd', v1 ? 1 : 0, 0,
    time(0), time(0), u32(MOVIE_TIMESCALE), time(duration),
    u32(0x10000), u16(0x100), Buffer.alloc(10), MATRIX, Buffer.alloc(24), u32(tracks.length + 1),
  );
  return box('moov', mvhd, ...traks.map((t) => t.trak));
}

/** An mdat header for `payload` bytes (always the 64-bit form: its size never depends on the payload). */
export function mediaDataHeader(payload: number): Buffer {
  return Buffer.concat([u32(1), Buffer.from('mdat', 'latin1'), u64(payload + 16)]);
}
