/**
 * FCPXML times: a rational number of seconds, 'N/Ds' or 'Ns' (64-bit numerator, 32-bit
 * denominator), read exactly with BigInt so a whole number of frames can be told from a near miss.
 */

export interface Rational {
  num: bigint;
  den: bigint;
}

const TIME = /^(-?\d{1,20})(?:\/(\d{1,10}))?s$/;

/** The time `text` as a fraction, or null when it is not of the form 'N/Ds' or 'Ns' (D > 0). */
export function parseTime(text: string): Rational | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const den = BigInt(m[2] ?? '1');
  if (den === 0n) return null;
  return { num: BigInt(m[1]!), den };
}

export const ZERO: Rational = { num: 0n, den: 1n };

/** `t` in frames of `frameDuration`, or null when it is not a whole number of them. */
export function toFrames(t: Rational, frameDuration: Rational): number | null {
  const n = t.num * frameDuration.den;
  const d = t.den * frameDuration.num;
  if (d === 0n || n % d !== 0n) return null;
  const frames = n / d;
  if (frames > BigInt(Number.MAX_SAFE_INTEGER) || frames < -BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(frames);
}

/** `t` in seconds, as a float (for keyframes at audio-sample times). */
export const toSeconds = (t: Rational): number => Number(t.num) / Number(t.den);
