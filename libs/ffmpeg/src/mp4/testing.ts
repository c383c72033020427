/**
 * Test support (not exported by the library): MP4 boxes built by hand, for the reader's unit and
 * fuzz tests and the crafted files of the hostile-input tests.
 */
import type { OutTrack } from './write';

export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
export const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
export const zeros = (n: number): Buffer => Buffer.alloc(n);

export function box(type: string, ...parts: Uint8Array[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), ascii(type), body]);
}
export const full = (type: string, flags: number, ...parts: Uint8Array[]): Buffer => box(type, u32(flags & 0xffffff), ...parts);

/** A visual sample entry (avc1) with an avcC holding one SPS and one PPS. */
export function avcStsd(sps: number[], pps: number[]): Buffer {
  const avcC = Buffer.from([1, 100, 0, 31, 0xff, 0xe1, 0, sps.length, ...sps, 1, 0, pps.length, ...pps]);
  const avcCBox = Buffer.concat([Buffer.from([0, 0, 0, avcC.length + 8]), Buffer.from('avcC'), avcC]);
  const visual = Buffer.alloc(78);
  const entry = Buffer.concat([Buffer.alloc(4), Buffer.from('avc1'), visual, avcCBox]);
  entry.writeUInt32BE(entry.length);
  const stsd = Buffer.concat([Buffer.alloc(4), Buffer.from('stsd'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), entry]);
  stsd.writeUInt32BE(stsd.length);
  return stsd;
}

/** A visual sample entry (hvc1) with an hvcC of complete VPS, SPS and PPS arrays (one NAL unit each). */
export function hevcStsd(nals: [number[], number[], number[]]): Buffer {
  const arrays = nals.map((nal, i) => Buffer.from([0x80 | [32, 33, 34][i]!, 0, 1, 0, nal.length, ...nal]));
  const hvcC = Buffer.concat([Buffer.from([1, 1, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93, 0xf0, 0, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f, 3]), ...arrays]);
  const hvcCBox = Buffer.concat([u32(hvcC.length + 8), ascii('hvcC'), hvcC]);
  const entry = Buffer.concat([Buffer.alloc(4), ascii('hvc1'), Buffer.alloc(78), hvcCBox]);
  entry.writeUInt32BE(entry.length);
  const stsd = Buffer.concat([Buffer.alloc(4), ascii('stsd'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), entry]);
  stsd.writeUInt32BE(stsd.length);
  return stsd;
}

/** A four-sample video track at the given sample offsets. */
export const track = (o: Partial<OutTrack> = {}): OutTrack => ({
  handler: 'vide',
  timescale: 15360,
  language: 0x55c4,
  stsd: avcStsd([0x67, 1, 2], [0x68, 3]),
  width: 1280 << 16,
  height: 720 << 16,
  offsets: Float64Array.from([100, 110, 130, 5_000_000_000]),
  sizes: Uint32Array.from([10, 20, 30, 40]),
  durations: new Uint32Array(4).fill(512),
  ctts: Int32Array.from([1024, 2048, 0, 512]),
  sync: Uint8Array.from([1, 0, 0, 0]),
  editMediaTime: 1024,
  ...o,
});

export const FTYP = box('ftyp', ascii('isom'), u32(512), ascii('isomiso2avc1mp41'));

/** The first box of `type` found by walking `path` (e.g. ['trak', 'mdia', ...]) from the movie box's payload. */
export function findBox(moov: Buffer, path: readonly string[]): { start: number; end: number } {
  let [start, end] = [8, moov.length];
  let found = { start: 0, end: moov.length };
  for (const type of path) {
    let pos = start;
    let hit: { start: number; end: number } | null = null;
    while (pos + 8 <= end) {
      const size = moov.readUInt32BE(pos);
      if (size < 8) break;
      if (moov.toString('latin1', pos + 4, pos + 8) === type) {
        hit = { start: pos, end: pos + size };
        break;
      }
      pos += size;
    }
    if (!hit) throw new Error(`no ${type} box`);
    found = hit;
    [start, end] = [hit.start + 8, hit.end];
  }
  return found;
}
