/**
 * Parameter-set NAL units (H.264 SPS/PPS, HEVC VPS/SPS/PPS) of a sample description, read from its
 * avcC or hvcC within the box's bounds, and the sample entry that says where they travel. Pure.
 */
import { childBoxes, parseBoxHeader } from './boxes';

/**
 * The parameter sets of the first sample description of `stsd` (the whole box), each with a
 * 4-byte length prefix, ready to put in front of a sample; null when the entry has no avcC/hvcC,
 * its NAL lengths are not 4 bytes, or the configuration overruns its box.
 */
export function parameterSetsOf(stsd: Buffer): Buffer | null {
  // stsd: full box header (12 + 4 count), then the first entry: 8-byte header, 78 bytes of visual fields
  if (stsd.length < 16 + 8 + 78) return null;
  const entry = parseBoxHeader(stsd.subarray(16), stsd.length - 16);
  if (!entry) return null;
  const boxes = childBoxes(stsd, 16 + 8 + 78, 16 + entry.size);
  const nals: Buffer[] = [];
  /** `n` NAL units stored with 2-byte lengths from `at` (inside [.., end)), taken with 4-byte lengths; where they end, or -1. */
  const take = (at: number, n: number, end: number): number => {
    for (let i = 0; i < n; i++) {
      if (at + 2 > end) return -1;
      const len = stsd.readUInt16BE(at);
      if (at + 2 + len > end) return -1;
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
    if (p + 6 > avcC.end || (stsd[p + 4]! & 3) !== 3) return null;
    let at = p + 5;
    for (const mask of [0x1f, 0xff]) {
      if (at + 1 > avcC.end) return null;
      at = take(at + 1, stsd[at]! & mask, avcC.end);
      if (at < 0) return null;
    }
    return Buffer.concat(nals);
  }
  const hvcC = boxes.find((x) => x.type === 'hvcC');
  if (hvcC) {
    const p = hvcC.payloadStart;
    if (p + 23 > hvcC.end || (stsd[p + 21]! & 3) !== 3) return null;
    const arrays = stsd[p + 22]!;
    let at = p + 23;
    for (let a = 0; a < arrays; a++) {
      if (at + 3 > hvcC.end) return null;
      at = take(at + 3, stsd.readUInt16BE(at + 1), hvcC.end);
      if (at < 0) return null;
    }
    return Buffer.concat(nals);
  }
  return null;
}

/**
 * A copy of the video's sample description `stsd` as an output carries it: with parameter sets in
 * band (`inBand`: re-encoded pieces bring their own) an `hev1`/`avc3` entry, whose hvcC arrays are
 * marked incomplete (ISO/IEC 14496-15 allows in-band sets only there); else `hvc1`/`avc1`.
 */
export function sampleEntryFor(stsd: Buffer, inBand: boolean): Buffer {
  const out = Buffer.from(stsd);
  if (out.length < 16 + 8 + 78) return out;
  const type = out.toString('latin1', 20, 24);
  const hevc = type === 'hvc1' || type === 'hev1';
  if (!hevc && type !== 'avc1' && type !== 'avc3') return out;
  out.write(hevc ? (inBand ? 'hev1' : 'hvc1') : inBand ? 'avc3' : 'avc1', 20, 'latin1');
  const entry = parseBoxHeader(out.subarray(16), out.length - 16);
  const hvcC = hevc && inBand && entry ? childBoxes(out, 16 + 8 + 78, 16 + entry.size).find((x) => x.type === 'hvcC') : undefined;
  if (!hvcC || hvcC.payloadStart + 23 > hvcC.end) return out;
  // per array: array_completeness (top bit) | NAL type, a count, then its NAL units
  let at = hvcC.payloadStart + 23;
  for (let a = 0; a < out[hvcC.payloadStart + 22]! && at + 3 <= hvcC.end; a++) {
    out[at] = out[at]! & 0x7f;
    let n = out.readUInt16BE(at + 1);
    at += 3;
    while (n-- > 0 && at + 2 <= hvcC.end) at += 2 + out.readUInt16BE(at);
  }
  return out;
}
