/**
 * Exporting a key moment through every service as a real process (Postgres, NATS, s3rver, ffmpeg):
 * the synthesised lesson of tools/media/generate-test-media.sh, its picture replaced by four
 * coloured quarters so the exported frame shows which part of the source it kept. A 9:16 moment
 * zoomed and panned into the top-right quarter renders at 1080x1920 showing only that quarter; an
 * Original export passes the native frame through; the clips are listed with the video's and
 * downloadable; a stranger gets 404, no identity 401, a bad body 400.
 * Requires the services to be built (`npm run build:services`).
 */
import { exportKeyMomentResponseSchema, keyMomentsResponseSchema, videoSchema, type ExportKeyMomentResponse, type KeyMoment, type Video } from '@wordcut/contracts';
import { reframeGeometry } from '@wordcut/edit-list';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lessonMedia } from '../media/talk-media';
import { ROOT } from '../stack/stack';
import { eventually } from '../testing/env';
import { bearer } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13900, media: 13901, jobs: 13902, export: 13903, analytics: 13904 };
const MEDIA = join(ROOT, '.data', 'test-media');
const SIZE = { width: 320, height: 180 };
/** The quarters of the marked picture: top-left red, top-right blue, bottom-left green, bottom-right white. */
const QUARTERS = { topLeft: [255, 0, 0], topRight: [0, 0, 255], bottomLeft: [0, 255, 0], bottomRight: [255, 255, 255] } as const;

/** The lesson's sound under a picture of four coloured quarters. */
function markedLesson(dir: string, lessonMp4: string): string {
  const out = join(dir, 'lesson-marked.mp4');
  const { width: w, height: h } = SIZE;
  const boxes = [
    `drawbox=x=0:y=0:w=${w / 2}:h=${h / 2}:color=red:t=fill`,
    `drawbox=x=${w / 2}:y=0:w=${w / 2}:h=${h / 2}:color=blue:t=fill`,
    `drawbox=x=0:y=${h / 2}:w=${w / 2}:h=${h / 2}:color=lime:t=fill`,
    `drawbox=x=${w / 2}:y=${h / 2}:w=${w / 2}:h=${h / 2}:color=white:t=fill`,
  ].join(',');
  execFileSync('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=black:size=${w}x${h}:rate=15,${boxes}`,
    '-i', lessonMp4,
    '-map', '0:v', '-map', '1:a', '-shortest',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-g', '30', '-pix_fmt', 'yuv420p',
    '-c:a', 'copy', '-movflags', '+faststart',
    out,
  ]);
  return out;
}

/** The RGB pixels of the first frame of `path`, scaled to `w` x `h`. */
function firstFrame(path: string, w: number, h: number): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-frames:v', '1', '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 64 << 20 });
}

function dims(path: string): string {
  return execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path]).toString().trim();
}

describe('key moments: export a moment as a clip', () => {
  let sys: TestSystem;
  let token: string;
  let strangerToken: string;
  let video: Video;
  let moment: KeyMoment;
  let dir: string;

  const api = (path: string) => sys.api(path);
  const exportMoment = (id: string, body: unknown, headers: Record<string, string> = bearer(token)) =>
    fetch(api(`/api/key-moments/${id}/export`), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const clipDone = (clipId: string) =>
    eventually(async () => {
      const list = (await (await fetch(api(`/api/videos/${video.id}/clips`), { headers: bearer(token) })).json()) as Array<{ id: string; status: string; name: string; aspectRatio: string; reframe: unknown }>;
      const clip = list.find((c) => c.id === clipId);
      if (clip?.status === 'failed') throw new Error('the clip failed');
      return clip?.status === 'completed' ? clip : undefined;
    }, 150000, `clip ${clipId} completed`);
  const download = async (clipId: string, name: string): Promise<string> => {
    const res = await fetch(api(`/api/clips/${clipId}/download`), { headers: bearer(token) });
    expect(res.status).toBe(200);
    const path = join(dir, name);
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wordcut-keyclips-'));
    const lesson = lessonMedia(MEDIA);
    const mp4 = markedLesson(dir, lesson.mp4);
    sys = await startSystem({ name: 'keymoments-export', ports: PORTS });
    token = await sys.sandbox.signToken({ sub: 'user-keyclips', sessionId: 's-keyclips', videoId: 'lesson' });
    strangerToken = await sys.sandbox.signToken({ sub: 'someone-else', sessionId: 's-other', videoId: 'other' });
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(readFileSync(mp4))], { type: 'video/mp4' }), 'lesson.mp4');
    form.append('vtt', new Blob([readFileSync(lesson.vtt, 'utf8')], { type: 'text/vtt' }), 'lesson.vtt');
    const res = await fetch(api('/api/videos/upload'), { method: 'POST', body: form, headers: bearer(token) });
    expect(res.status).toBe(201);
    const created = videoSchema.parse(await res.json());
    video = await eventually(async () => {
      const v = videoSchema.parse(await (await fetch(api(`/api/videos/${created.id}`), { headers: bearer(token) })).json());
      return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
    }, 90000, 'upload completed');
    const found = keyMomentsResponseSchema.parse(await (await fetch(api(`/api/videos/${video.id}/find-key-moments`), { method: 'POST', headers: bearer(token) })).json());
    // the shortest moment renders fastest
    moment = [...found.moments].sort((a, b) => a.duration - b.duration)[0]!;
  }, 240000);

  afterAll(async () => {
    await sys?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exports a 9:16 moment zoomed and panned into the top-right quarter: 1080x1920 showing only that quarter', async () => {
    const reframe = { offsetX: 20, offsetY: -25, scale: 2.5 };
    const res = await exportMoment(moment.id, { aspectRatio: '9:16', mode: 'reframe', reframe });
    expect(res.status).toBe(202);
    const answer: ExportKeyMomentResponse = exportKeyMomentResponseSchema.parse(await res.json());
    const expected = reframeGeometry(SIZE.width, SIZE.height, '9:16', reframe);
    expect(answer).toMatchObject({ momentId: moment.id, name: moment.title, aspectRatio: '9:16', mode: 'crop', width: 1080, height: 1920, reframe, status: 'pending' });
    expect(answer.upscale).toBeCloseTo(expected.upscale, 9);
    // the window the preview shows lies in the top-right quarter
    expect(expected.crop.x).toBeGreaterThan(SIZE.width / 2);
    expect(expected.crop.y + expected.crop.height).toBeLessThan(SIZE.height / 2);

    const clip = await clipDone(answer.id);
    expect(clip).toMatchObject({ name: moment.title, aspectRatio: '9:16', reframe: { aspectRatio: '9:16', ...reframe } });
    const path = await download(answer.id, 'story.mp4');
    expect(dims(path)).toBe('1080,1920');
    const duration = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString());
    expect(Math.abs(duration - moment.duration)).toBeLessThan(0.5);
    // every sampled pixel is the top-right quarter's blue
    const frame = firstFrame(path, 9, 16);
    for (let i = 0; i < frame.length; i += 3) {
      const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
      expect([r, g, b].map((v, k) => Math.abs(v - QUARTERS.topRight[k]!) < 40)).toEqual([true, true, true]);
    }
  }, 240000);

  it('passes the native frame through for Original at zoom 1', async () => {
    const res = await exportMoment(moment.id, { aspectRatio: 'Original', mode: 'reframe' });
    expect(res.status).toBe(202);
    const answer = exportKeyMomentResponseSchema.parse(await res.json());
    expect(answer).toMatchObject({ mode: 'original', width: 320, height: 180, upscale: 1, reframe: { offsetX: 0, offsetY: 0, scale: 1 } });
    await clipDone(answer.id);
    const path = await download(answer.id, 'original.mp4');
    expect(dims(path)).toBe('320,180');
    // all four quarters are there
    const frame = firstFrame(path, 4, 4);
    const at = (x: number, y: number) => [...frame.subarray((y * 4 + x) * 3, (y * 4 + x) * 3 + 3)];
    const near = (pixel: number[], colour: readonly number[]) => pixel.every((v, k) => Math.abs(v - colour[k]!) < 40);
    expect(near(at(0, 0), QUARTERS.topLeft)).toBe(true);
    expect(near(at(3, 0), QUARTERS.topRight)).toBe(true);
    expect(near(at(0, 3), QUARTERS.bottomLeft)).toBe(true);
    expect(near(at(3, 3), QUARTERS.bottomRight)).toBe(true);
  }, 240000);

  it('holds the pan so the frame stays covered, and answers the window from a crop rectangle', async () => {
    const res = await exportMoment(moment.id, { aspectRatio: '1:1', reframe: { offsetX: 100, offsetY: 0, scale: 1 } });
    expect(res.status).toBe(202);
    const answer = exportKeyMomentResponseSchema.parse(await res.json());
    // a 180-pixel square window on a 320-pixel frame moves at most 21.875 % right
    expect(answer.reframe.offsetX).toBeCloseTo(21.875, 9);
    const byCrop = exportKeyMomentResponseSchema.parse(await (await exportMoment(moment.id, { aspectRatio: '1:1', crop: { x: 140, y: 0, width: 180, height: 180 } })).json());
    expect(byCrop.reframe.offsetX).toBeCloseTo(21.875, 9);
    expect(byCrop.reframe.scale).toBe(1);
    await Promise.all([clipDone(answer.id), clipDone(byCrop.id)]);
  }, 240000);

  it('answers a stranger 404 like a missing moment, no identity 401, a bad body 400', async () => {
    const stranger = await exportMoment(moment.id, { aspectRatio: '9:16' }, bearer(strangerToken));
    expect(stranger.status).toBe(404);
    const missing = await exportMoment('00000000-0000-4000-8000-000000000000', { aspectRatio: '9:16' });
    expect(missing.status).toBe(404);
    expect(((await stranger.json()) as { code: string }).code).toBe(((await missing.json()) as { code: string }).code);
    expect((await exportMoment(moment.id, { aspectRatio: '9:16' }, {})).status).toBe(401);
    expect((await exportMoment(moment.id, { aspectRatio: '3:2' })).status).toBe(400);
    expect((await exportMoment(moment.id, { aspectRatio: '9:16', reframe: { scale: 3 } })).status).toBe(400);
  });
});
