/**
 * Auto-reframe: the path a vertical or square crop follows, from the faces found in sampled frames.
 * The largest face is followed; small movements (a nod, the detector's jitter) leave the frame
 * still; larger ones are followed smoothly at a bounded speed; with no face for a while the frame
 * eases back to the centre. One path per media version, in fractions of the frame, so every ratio
 * and zoom reads the same path; the preview and the render both interpolate it (pathAt).
 */

/** A face in a sampled frame, in fractions of the frame (0..1 from the top left). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** the detector's confidence, 0..1 */
  score: number;
}

export interface FaceSample {
  /** seconds on the media's timeline */
  t: number;
  faces: readonly FaceBox[];
}

/** Where the crop's centre is at a time, in fractions of the frame. */
export interface PathPoint {
  t: number;
  x: number;
  y: number;
}

export interface FollowOptions {
  /** faces below this confidence are not followed */
  minScore: number;
  /** a face that stays within this of where it was (fraction of the frame, each way) for stillSec is still */
  deadZone: number;
  stillSec: number;
  /** seconds of smoothing (each side: the path has no lag, it is computed over the whole media) */
  timeConstant: number;
  /** the fastest the frame pans, in frames per second (1 = the frame's width in a second) */
  maxSpeed: number;
  /** seconds a lost face is held before the frame eases back to the centre */
  holdSec: number;
  /** keyframes are dropped where the path between their neighbours stays within this (fraction) */
  tolerance: number;
}

export const FOLLOW_DEFAULTS: FollowOptions = { minScore: 0.5, deadZone: 0.03, stillSec: 1, timeConstant: 0.4, maxSpeed: 0.5, holdSec: 1.5, tolerance: 0.003 };

/** Samples a path keeps at most, whatever the media's length (about 4 hours at 2 a second). */
export const MAX_PATH_SAMPLES = 30_000;
/** Samples a still stretch is looked for over at once (bounds the work per sample). */
const STILL_WINDOW = 600;

const CENTRE = 0.5;
const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/** The centre of the largest confident face, or null. */
function largestFace(faces: readonly FaceBox[], minScore: number): { x: number; y: number } | null {
  let best: FaceBox | null = null;
  for (const f of faces) {
    if (!(f.score >= minScore) || !(f.width > 0) || !(f.height > 0)) continue;
    if (!best || f.width * f.height > best.width * best.height) best = f;
  }
  return best ? { x: clamp01(best.x + best.width / 2), y: clamp01(best.y + best.height / 2) } : null;
}

/** Stretches where the value stays within 2 × zone for `stillSec` or more become their mean: a still face keeps the frame still. */
function holdStill(t: readonly number[], v: number[], zone: number, stillSec: number): void {
  let k = 0;
  while (k < v.length) {
    let lo = v[k]!;
    let hi = v[k]!;
    let j = k;
    while (j + 1 < v.length && j + 1 - k < STILL_WINDOW && Math.max(hi, v[j + 1]!) - Math.min(lo, v[j + 1]!) <= 2 * zone) {
      j++;
      lo = Math.min(lo, v[j]!);
      hi = Math.max(hi, v[j]!);
    }
    if (t[j]! - t[k]! >= stillSec) {
      let sum = 0;
      for (let a = k; a <= j; a++) sum += v[a]!;
      v.fill(sum / (j - k + 1), k, j + 1);
      k = j + 1;
    } else k++;
  }
}

/** Exponential smoothing forward, then backward: no lag either way. */
function smoothBothWays(t: readonly number[], v: number[], tau: number): void {
  for (let k = 1; k < v.length; k++) v[k] = v[k - 1]! + (v[k]! - v[k - 1]!) * (1 - Math.exp(-(t[k]! - t[k - 1]!) / tau));
  for (let k = v.length - 2; k >= 0; k--) v[k] = v[k + 1]! + (v[k]! - v[k + 1]!) * (1 - Math.exp(-(t[k + 1]! - t[k]!) / tau));
}

/** No step faster than maxSpeed, forward then backward (a fast move starts earlier and ends later). */
function limitSpeed(t: readonly number[], v: number[], maxSpeed: number): void {
  for (let k = 1; k < v.length; k++) {
    const limit = maxSpeed * (t[k]! - t[k - 1]!);
    v[k] = Math.max(v[k - 1]! - limit, Math.min(v[k - 1]! + limit, v[k]!));
  }
  for (let k = v.length - 2; k >= 0; k--) {
    const limit = maxSpeed * (t[k + 1]! - t[k]!);
    v[k] = Math.max(v[k + 1]! - limit, Math.min(v[k + 1]! + limit, v[k]!));
  }
}

/**
 * The path of the crop's centre for samples in time order, computed over the whole media (so it
 * anticipates as much as it follows), simplified to the keyframes that matter. A face lost for
 * longer than holdSec: the frame eases back to the centre. No sample: none (the caller centres).
 */
export function followFaces(samples: readonly FaceSample[], options: Partial<FollowOptions> = {}): PathPoint[] {
  const o = { ...FOLLOW_DEFAULTS, ...options };
  if (samples.length > MAX_PATH_SAMPLES) throw new RangeError(`at most ${MAX_PATH_SAMPLES} samples, got ${samples.length}`);
  const t: number[] = [];
  for (const s of samples) {
    if (!Number.isFinite(s.t) || (t.length > 0 && s.t < t[t.length - 1]!)) throw new RangeError('samples must be in time order');
    t.push(s.t);
  }
  if (t.length === 0) return [];
  const seen = samples.map((s) => largestFace(s.faces, o.minScore));
  const x: number[] = [];
  const y: number[] = [];
  // before the first face: that face; after a face is lost: held, then the centre
  const firstSeen = seen.find((f) => f !== null) ?? { x: CENTRE, y: CENTRE };
  let last: { x: number; y: number } | null = null;
  let lastAt = -Infinity;
  for (let k = 0; k < t.length; k++) {
    const f = seen[k];
    if (f) {
      last = f;
      lastAt = t[k]!;
    }
    const p = f ?? (last === null ? firstSeen : t[k]! - lastAt <= o.holdSec ? last : { x: CENTRE, y: CENTRE });
    x.push(p.x);
    y.push(p.y);
  }
  for (const v of [x, y]) {
    holdStill(t, v, o.deadZone, o.stillSec);
    smoothBothWays(t, v, o.timeConstant);
    limitSpeed(t, v, o.maxSpeed);
  }
  return simplify(
    t.map((time, k) => ({ t: time, x: round5(clamp01(x[k]!)), y: round5(clamp01(y[k]!)) })),
    o.tolerance,
  );
}

const round5 = (v: number): number => Math.round(v * 1e5) / 1e5;

/** Ramer–Douglas–Peucker on x and y over time: the keyframes whose straight lines stay within `tolerance`. */
export function simplify(points: readonly PathPoint[], tolerance: number): PathPoint[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    let worst = -1;
    let worstAt = -1;
    for (let k = a + 1; k < b; k++) {
      const p = interpolate(points[a]!, points[b]!, points[k]!.t);
      const d = Math.max(Math.abs(p.x - points[k]!.x), Math.abs(p.y - points[k]!.y));
      if (d > worst) {
        worst = d;
        worstAt = k;
      }
    }
    if (worst > tolerance) {
      keep[worstAt] = 1;
      stack.push([a, worstAt], [worstAt, b]);
    }
  }
  return points.filter((_, k) => keep[k] === 1);
}

function interpolate(a: PathPoint, b: PathPoint, t: number): { x: number; y: number } {
  if (b.t <= a.t) return { x: a.x, y: a.y };
  const f = Math.min(1, Math.max(0, (t - a.t) / (b.t - a.t)));
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
}

/** Where the path points at time t (straight lines between keyframes; held before the first and after the last). */
export function pathAt(path: readonly PathPoint[], t: number): { x: number; y: number } {
  if (path.length === 0) return { x: CENTRE, y: CENTRE };
  if (t <= path[0]!.t) return { x: path[0]!.x, y: path[0]!.y };
  const last = path[path.length - 1]!;
  if (t >= last.t) return { x: last.x, y: last.y };
  let lo = 0;
  let hi = path.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (path[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  return interpolate(path[lo]!, path[hi]!, t);
}

/** The stretch of a path a clip of [start, end) of the media needs, on the clip's own clock (0 at start). */
export function pathForClip(path: readonly PathPoint[], start: number, end: number): PathPoint[] {
  if (path.length === 0 || !(end > start)) return [];
  const inside = path.filter((p) => p.t > start && p.t < end).map((p) => ({ t: p.t - start, ...pathAt(path, p.t) }));
  const at = (t: number) => ({ t: t - start, ...pathAt(path, t) });
  return [at(start), ...inside, at(end)];
}
