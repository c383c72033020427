import { FOLLOW_DEFAULTS, followFaces, pathAt, pathForClip, type FaceSample } from './face-path';
import { seededRandom } from '../../../tools/testing/transcript-data';

/** Samples at `fps` for `seconds`, the face where `at(t)` puts its centre (null: no face), 0.1 of the frame wide. */
function samples(seconds: number, at: (t: number) => { x: number; y: number } | null, fps = 2): FaceSample[] {
  const out: FaceSample[] = [];
  for (let k = 0; k <= seconds * fps; k++) {
    const t = k / fps;
    const c = at(t);
    out.push({ t, faces: c ? [{ x: c.x - 0.05, y: c.y - 0.08, width: 0.1, height: 0.16, score: 0.9 }] : [] });
  }
  return out;
}


const speeds = (path: ReturnType<typeof followFaces>, step = 0.1) => {
  const out: number[] = [];
  const end = path[path.length - 1]?.t ?? 0;
  for (let t = 0; t + step <= end; t += step) out.push(Math.abs(pathAt(path, t + step).x - pathAt(path, t).x) / step);
  return out;
};

describe('auto-reframe: the path that follows the largest face', () => {
  it('a still face holds the frame still, even with the detector jittering', () => {
    const r = seededRandom(7);
    const path = followFaces(samples(30, () => ({ x: 0.3 + (r() - 0.5) * 0.03, y: 0.4 + (r() - 0.5) * 0.03 })));
    expect(path.length).toBeLessThanOrEqual(3);
    for (let t = 0; t <= 30; t += 0.5) expect(Math.abs(pathAt(path, t).x - 0.3)).toBeLessThan(0.01);
    expect(Math.max(...speeds(path))).toBeLessThan(0.01);
  });

  it('a face moving left to right is followed without lag and never faster than the limit', () => {
    const path = followFaces(samples(20, (t) => ({ x: 0.15 + (0.7 * t) / 20, y: 0.4 })));
    for (let t = 2; t <= 18; t += 0.5) expect(Math.abs(pathAt(path, t).x - (0.15 + (0.7 * t) / 20))).toBeLessThan(0.03);
    expect(Math.max(...speeds(path))).toBeLessThanOrEqual(FOLLOW_DEFAULTS.maxSpeed + 1e-6);
  });

  it('a jump across the frame becomes a pan at the speed limit, started early and ended late', () => {
    const path = followFaces(samples(10, (t) => ({ x: t < 5 ? 0.2 : 0.8, y: 0.5 })));
    expect(Math.max(...speeds(path))).toBeLessThanOrEqual(FOLLOW_DEFAULTS.maxSpeed + 1e-6);
    expect(pathAt(path, 1).x).toBeCloseTo(0.2, 2);
    expect(pathAt(path, 9.5).x).toBeCloseTo(0.8, 2);
    expect(pathAt(path, 5).x).toBeGreaterThan(0.4);
    expect(pathAt(path, 5).x).toBeLessThan(0.6);
  });

  it('follows the largest confident face; no face at all keeps the centre; a lost face is held, then the centre', () => {
    const two: FaceSample[] = samples(6, () => null).map((s) => ({
      t: s.t,
      faces: [
        { x: 0.1, y: 0.1, width: 0.05, height: 0.08, score: 0.99 },
        { x: 0.6, y: 0.3, width: 0.2, height: 0.3, score: 0.9 },
        { x: 0.0, y: 0.0, width: 0.5, height: 0.5, score: 0.2 },
      ],
    }));
    expect(pathAt(followFaces(two), 3)).toEqual({ x: 0.7, y: 0.45 });
    expect(followFaces(samples(10, () => null)).every((p) => p.x === 0.5 && p.y === 0.5)).toBe(true);
    const lost = followFaces(samples(20, (t) => (t < 8 ? { x: 0.2, y: 0.5 } : null)));
    expect(pathAt(lost, 8.5).x).toBeCloseTo(0.2, 1);
    expect(pathAt(lost, 18).x).toBeCloseTo(0.5, 2);
    expect(followFaces([])).toEqual([]);
  });

  it('refuses samples out of time order or too many of them', () => {
    expect(() => followFaces([{ t: 1, faces: [] }, { t: 0, faces: [] }])).toThrow(RangeError);
    expect(() => followFaces(Array.from({ length: 30_001 }, (_, k) => ({ t: k, faces: [] })))).toThrow(RangeError);
  });

  it('a clip reads its stretch of the path on its own clock', () => {
    const path = followFaces(samples(20, (t) => ({ x: 0.15 + (0.7 * t) / 20, y: 0.4 })));
    const clip = pathForClip(path, 5, 9);
    expect(clip[0]!.t).toBe(0);
    expect(clip[clip.length - 1]!.t).toBe(4);
    expect(pathAt(clip, 2).x).toBeCloseTo(pathAt(path, 7).x, 6);
    expect(pathForClip([], 0, 5)).toEqual([]);
  });
});
