/**
 * Which known recording a piece of audio is, and where in it: the normalised cross-correlation of
 * their loudness envelopes (one level byte per frame, ENERGY_FRAMES_PER_SECOND, energy-format.ts of
 * @wordcut/contracts). Pure: no I/O. The sandbox's transcription stand-in uses it to find the
 * stretch of a script an uploaded chunk holds; it recognises no speech.
 */
import { energyByte } from '@wordcut/contracts';

/** A match of a chunk of SURE_MATCH_FRAMES or more is accepted from this correlation up. */
export const MIN_CORRELATION = 0.8;
/**
 * Short chunks fit somewhere by chance (2 s of one espeak-ng recording reach r = 0.98 in another),
 * so shorter chunks need more: the requirement rises linearly to SHORT_MATCH_CORRELATION at
 * MIN_MATCH_FRAMES; anything shorter is refused. (A re-encoded true stretch scores about 0.99+.)
 */
export const SURE_MATCH_FRAMES = 1000;
export const MIN_MATCH_FRAMES = 200;
export const SHORT_MATCH_CORRELATION = 0.99;
/** Levels under this are the same silence (codecs leave different noise floors). */
export const FLOOR_LEVEL = energyByte(-70);
/** A frame this loud or louder may be speech. */
export const SPEECH_LEVEL = energyByte(-45);
/** Audio with fewer speech frames than this (0.2 s) is not matched. */
export const MIN_SPEECH_FRAMES = 20;
/** Above this many multiply-adds, offsets are searched on decimated envelopes first. */
export const FULL_SEARCH_WORK = 30_000_000;

export interface EnergyMatch {
  /** the frame of the media where the chunk's first frame is */
  offsetFrames: number;
  /** Pearson correlation over the overlap, -1..1 */
  score: number;
}

export interface MatchOptions {
  /** how far the chunk may run past the media's end, in frames; default 0 */
  maxOverhangFrames?: number;
}

/** Levels as numbers, with everything under FLOOR_LEVEL lifted to it. */
export function levels(energy: ArrayLike<number>): Float64Array {
  const out = new Float64Array(energy.length);
  for (let i = 0; i < energy.length; i++) out[i] = Math.max(energy[i]!, FLOOR_LEVEL);
  return out;
}

/** Whether the chunk holds any speech energy (at least MIN_SPEECH_FRAMES loud frames). */
export function hasSpeech(energy: ArrayLike<number>): boolean {
  let loud = 0;
  for (let i = 0; i < energy.length; i++) if (energy[i]! >= SPEECH_LEVEL && ++loud >= MIN_SPEECH_FRAMES) return true;
  return false;
}

/** The correlation a chunk of this many frames needs (Infinity: too short to tell). */
export function requiredCorrelation(frames: number): number {
  if (frames < MIN_MATCH_FRAMES) return Infinity;
  const shortness = Math.min(1, (SURE_MATCH_FRAMES - Math.min(frames, SURE_MATCH_FRAMES)) / (SURE_MATCH_FRAMES - MIN_MATCH_FRAMES));
  return MIN_CORRELATION + (SHORT_MATCH_CORRELATION - MIN_CORRELATION) * shortness;
}

/** Running sums of values and squares: sum of [a, b) is p[b] - p[a]. */
function prefixSums(x: Float64Array): { s: Float64Array; q: Float64Array } {
  const s = new Float64Array(x.length + 1);
  const q = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) {
    s[i + 1] = s[i]! + x[i]!;
    q[i + 1] = q[i]! + x[i]! * x[i]!;
  }
  return { s, q };
}

/** Pearson correlation of chunk[0..n) with media[k..k+n), n the overlap; 0 when either is flat. */
function correlationAt(chunk: Float64Array, media: Float64Array, c: ReturnType<typeof prefixSums>, m: ReturnType<typeof prefixSums>, k: number): number {
  const n = Math.min(chunk.length, media.length - k);
  if (n < 2) return 0;
  let dot = 0;
  for (let i = 0; i < n; i++) dot += chunk[i]! * media[k + i]!;
  const sx = c.s[n]!;
  const sy = m.s[k + n]! - m.s[k]!;
  const vx = c.q[n]! - (sx * sx) / n;
  const vy = m.q[k + n]! - m.q[k]! - (sy * sy) / n;
  // flat (within rounding): nothing to correlate
  if (vx <= 1e-9 * n || vy <= 1e-9 * n) return 0;
  return (dot - (sx * sy) / n) / Math.sqrt(vx * vy);
}

/** Block means of `f` frames (the last block may be shorter). */
function decimate(x: Float64Array, f: number): Float64Array {
  const out = new Float64Array(Math.ceil(x.length / f));
  for (let b = 0; b < out.length; b++) {
    let sum = 0;
    const end = Math.min(x.length, (b + 1) * f);
    for (let i = b * f; i < end; i++) sum += x[i]!;
    out[b] = sum / (end - b * f);
  }
  return out;
}

/** Scores of offsets first..last (inclusive). */
function scan(chunk: Float64Array, media: Float64Array, first: number, last: number): EnergyMatch[] {
  const c = prefixSums(chunk);
  const m = prefixSums(media);
  const out: EnergyMatch[] = [];
  for (let k = first; k <= last; k++) out.push({ offsetFrames: k, score: correlationAt(chunk, media, c, m, k) });
  return out;
}

/**
 * The offset of `chunk` in `media` (both level series) with the highest correlation: offsets
 * 0..media - chunk + overhang, frame by frame (large searches: on block means first, then refined
 * around the best few). Null when the chunk cannot fit (longer than media + overhang, or empty).
 */
export function matchEnergy(chunkEnergy: ArrayLike<number>, mediaEnergy: ArrayLike<number>, o: MatchOptions = {}): EnergyMatch | null {
  const chunk = levels(chunkEnergy);
  const media = levels(mediaEnergy);
  const overhang = Math.max(0, Math.floor(o.maxOverhangFrames ?? 0));
  const last = Math.min(media.length - 1, media.length - chunk.length + overhang);
  if (chunk.length === 0 || last < 0) return null;
  const work = chunk.length * (last + 1);
  let best: EnergyMatch | null = null;
  const consider = (ms: EnergyMatch[]): void => {
    for (const x of ms) if (!best || x.score > best.score) best = x;
  };
  if (work <= FULL_SEARCH_WORK) {
    consider(scan(chunk, media, 0, last));
    return best;
  }
  // coarse: decimating both by f cuts the work by f²
  const f = Math.ceil(Math.sqrt(work / FULL_SEARCH_WORK));
  const coarse = scan(decimate(chunk, f), decimate(media, f), 0, Math.floor(last / f));
  const top = coarse.sort((a, b) => b.score - a.score).slice(0, 5);
  for (const t of top) {
    const centre = t.offsetFrames * f;
    consider(scan(chunk, media, Math.max(0, centre - 2 * f), Math.min(last, centre + 2 * f)));
  }
  return best;
}

export interface KnownAudio<Id> {
  id: Id;
  energy: ArrayLike<number>;
}

export type FoundAudio<Id> = EnergyMatch & { id: Id };

/**
 * The known recording and offset the chunk is: the best match over all of them, accepted only at
 * requiredCorrelation (or `minCorrelation`) or above and when the chunk has speech; null
 * otherwise. Ties: the first listed.
 */
export function findKnownAudio<Id>(chunkEnergy: ArrayLike<number>, known: readonly KnownAudio<Id>[], o: MatchOptions & { minCorrelation?: number } = {}): FoundAudio<Id> | null {
  if (!hasSpeech(chunkEnergy)) return null;
  let best: FoundAudio<Id> | null = null;
  for (const k of known) {
    const m = matchEnergy(chunkEnergy, k.energy, o);
    if (m && (!best || m.score > best.score)) best = { ...m, id: k.id };
  }
  return best && best.score >= (o.minCorrelation ?? requiredCorrelation(chunkEnergy.length)) ? best : null;
}
