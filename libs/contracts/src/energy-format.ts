/**
 * The stored frame-energy series of a media version, next to its peaks: the loudness of every
 * 10 ms of the first audio stream, made in the same decode as the peaks, so silences can be found
 * later without decoding the media again (docs/SILENCE.md).
 *   0..3   'WCEN'
 *   4..7   uint32 LE format version (1)
 *   8..15  float64 LE duration in seconds
 *   16..19 uint32 LE frames per second (ENERGY_FRAMES_PER_SECOND)
 *   20..   one byte per frame: its RMS level in half decibels above ENERGY_FLOOR_DB
 *          (0 = -127.5 dBFS or quieter, digital silence included; 255 = 0 dBFS)
 * Pure (no Node APIs) so the browser could read it too.
 */
const MAGIC = [0x57, 0x43, 0x45, 0x4e];
export const ENERGY_HEADER_BYTES = 20;
/** Frames per second of media: one level per 10 ms. */
export const ENERGY_FRAMES_PER_SECOND = 100;
/** The level byte 0 stands for (and anything quieter). */
export const ENERGY_FLOOR_DB = -127.5;
/** Decibels per step of the level byte. */
export const ENERGY_DB_STEP = 0.5;

export interface EnergySeries {
  durationSec: number;
  framesPerSecond: number;
  /** one level byte per frame (energyDb reads it) */
  levels: Uint8Array;
}

/** The level byte of an RMS level in dBFS (clamped to the byte's range; -Infinity is 0). */
export function energyByte(db: number): number {
  if (!(db > ENERGY_FLOOR_DB)) return 0;
  return Math.min(255, Math.round((db - ENERGY_FLOOR_DB) / ENERGY_DB_STEP));
}

/** The RMS level in dBFS a level byte stands for. */
export function energyDb(byte: number): number {
  return ENERGY_FLOOR_DB + byte * ENERGY_DB_STEP;
}

export function encodeEnergy(s: EnergySeries): Uint8Array {
  const out = new Uint8Array(ENERGY_HEADER_BYTES + s.levels.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, 1, true);
  view.setFloat64(8, s.durationSec, true);
  view.setUint32(16, s.framesPerSecond, true);
  out.set(s.levels, ENERGY_HEADER_BYTES);
  return out;
}

export function decodeEnergy(bytes: Uint8Array): EnergySeries {
  if (bytes.length < ENERGY_HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a stored energy series');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== 1) throw new Error(`unknown energy format version ${version}`);
  const framesPerSecond = view.getUint32(16, true);
  if (framesPerSecond < 1) throw new Error('an energy series needs at least one frame per second');
  return { durationSec: view.getFloat64(8, true), framesPerSecond, levels: bytes.subarray(ENERGY_HEADER_BYTES) };
}
