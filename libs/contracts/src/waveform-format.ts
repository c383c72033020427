/**
 * The stored waveform format (one object per media version): a 16-byte header then one byte per
 * peak (0..255 = 0..1 of full scale), evenly spread over the duration.
 *   0..3   'WCPK'
 *   4..7   uint32 LE format version (1)
 *   8..15  float64 LE duration in seconds
 *   16..   peaks
 * Pure (no Node APIs) so the browser could read it too.
 */
const MAGIC = [0x57, 0x43, 0x50, 0x4b];
export const WAVEFORM_HEADER_BYTES = 16;

export function encodeWaveform(durationSec: number, peaks: Uint8Array): Uint8Array {
  const out = new Uint8Array(WAVEFORM_HEADER_BYTES + peaks.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, 1, true);
  view.setFloat64(8, durationSec, true);
  out.set(peaks, WAVEFORM_HEADER_BYTES);
  return out;
}

export function decodeWaveform(bytes: Uint8Array): { durationSec: number; peaks: Uint8Array } {
  if (bytes.length < WAVEFORM_HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a stored waveform');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== 1) throw new Error(`unknown waveform format version ${version}`);
  return { durationSec: view.getFloat64(8, true), peaks: bytes.subarray(WAVEFORM_HEADER_BYTES) };
}

/**
 * Peaks at the resolution asked for: each output point is the maximum of the stored peaks it
 * covers (so short loud sounds never vanish when zoomed out), scaled to 0..1 with 3 decimals.
 */
export function resampleWaveform(peaks: Uint8Array, points: number): number[] {
  const n = Math.max(0, Math.floor(points));
  const out = new Array<number>(n).fill(0);
  if (peaks.length === 0 || n === 0) return out;
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * peaks.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / n));
    let max = 0;
    for (let j = from; j < to && j < peaks.length; j++) if (peaks[j]! > max) max = peaks[j]!;
    out[i] = Math.round((max / 255) * 1000) / 1000;
  }
  return out;
}
