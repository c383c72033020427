/**
 * Auto-reframe's path on a real face: a face from the face-api package's own demo photo
 * (node_modules/@vladmandic/face-api/demo/sample1.jpg, the middle of its three people) moves left to
 * right over a grey picture; ffmpeg samples the frames, the real detector finds the face, the path
 * follows it. A 9:16 crop along the path keeps the face in its central half every sampled second.
 */
import { FOLLOW_DEFAULTS, pathAt } from '@wordcut/edit-list';
import { mediaInput } from '@wordcut/ffmpeg';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FaceApiDetector } from './face-detector';
import { faceTrack } from './face-track';

const W = 640;
const H = 360;
const SECONDS = 10;
const FACE = 150;
/** where the face's left edge is at t: from 40 px to 450 px */
const faceLeft = (t: number) => 40 + (410 * t) / SECONDS;

describe('auto-reframe on a moving face (real ffmpeg and detector)', () => {
  let dir: string;
  let video: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-faces-'));
    const photo = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg');
    video = join(dir, 'moving-face.mp4');
    // the photo at 640 px wide puts the middle face at about (254, 135) 104x93: a square around it
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x707070:s=${W}x${H}:r=25:d=${SECONDS}`, '-loop', '1', '-i', photo,
      '-filter_complex', `[1:v]scale=640:-2,crop=${FACE}:${FACE}:232:105[face];[0:v][face]overlay=x='40+${410 / SECONDS}*t':y=100:shortest=1,format=yuv420p[v]`,
      '-map', '[v]', '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', video,
    ]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds the face in the frames and the path keeps it in the central half of a 9:16 crop, smoothly', async () => {
    const { samples, path } = await faceTrack(new FaceApiDetector(), mediaInput(video), { durationSec: SECONDS, displayWidth: W, displayHeight: H }, { fps: 2, width: 320, stretchSec: 4, ffmpegTimeoutMs: 30_000 });
    expect(samples.length).toBeGreaterThanOrEqual(2 * SECONDS);
    const withFace = samples.filter((s) => s.faces.some((f) => f.score >= FOLLOW_DEFAULTS.minScore));
    expect(withFace.length / samples.length).toBeGreaterThan(0.8);
    // a 9:16 window over a 16:9 frame is this share of its width
    const cropWidth = (9 / 16) / (W / H);
    for (let t = 0; t < SECONDS; t += 1) {
      const centre = Math.min(1 - cropWidth / 2, Math.max(cropWidth / 2, pathAt(path, t).x));
      const face = (faceLeft(t) + FACE / 2) / W;
      expect({ t, off: Math.abs(face - centre) <= cropWidth / 4 }).toEqual({ t, off: true });
    }
    for (let t = 0; t + 0.1 <= SECONDS; t += 0.1) expect(Math.abs(pathAt(path, t + 0.1).x - pathAt(path, t).x) / 0.1).toBeLessThanOrEqual(FOLLOW_DEFAULTS.maxSpeed + 1e-6);
  }, 120_000);
});
