/**
 * renderEdit with real ffmpeg: frame-exact on H.264 and HEVC timecode media (the smart path), the
 * paths on awkward media (rotation, odd sizes, VFR, no audio, moov at the end), reframing and
 * burned captions, and cancellation.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { AAC_BLOCK, DiskCache, displayDimensions, probe, FfmpegAbortedError, SPLICE_MIN_SNR_DB, spliceRegions, planReframe, readRenderMediaInfo, renderEdit, smartRenderBlocker, buildAssScript, buildCaptionCues } from '@wordcut/ffmpeg';
import { AwkwardMedia, ensureAwkwardMedia } from '../../../../tools/media/awkward-media';
import { checkSync, expectedFramesForSegments, generateTimecodeMedia, readBurstOnsets, readFrameNumbers } from '../../../../tools/media/timecode-media';

const FPS = 30;

function probeVideo(path: string): { width: number; height: number; frames: number; duration: number; audio: boolean } {
  const json = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_type,width,height,nb_read_packets:format=duration', '-of', 'json', path]).toString(),
  ) as { streams: Array<{ codec_type: string; width?: number; height?: number; nb_read_packets?: string }>; format: { duration: string } };
  const v = json.streams.find((s) => s.codec_type === 'video')!;
  return { width: v.width!, height: v.height!, frames: Number(v.nb_read_packets), duration: Number(json.format.duration), audio: json.streams.some((s) => s.codec_type === 'audio') };
}

describe('renderEdit (real ffmpeg)', () => {
  let dir: string;
  let h264: string;
  let hevc: string;
  let awkward: string;
  let n = 0;
  const work = () => mkdtemp(join(dir, `w${n++}-`));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-render-'));
    h264 = join(dir, 'h264.mp4');
    hevc = join(dir, 'hevc.mp4');
    await generateTimecodeMedia(h264, { durationSec: 12, fps: FPS, gopFrames: 45 });
    await generateTimecodeMedia(hevc, { durationSec: 6, fps: FPS, gopFrames: 30, codec: 'hevc' });
    awkward = await ensureAwkwardMedia();
  }, 180000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const segments = [
    { start: 7.1, end: 9.05 },
    { start: 0.43, end: 2.5 },
    { start: 3.77, end: 6.0 },
  ];

  it('smart path on H.264 with B-frames: exact frames in the new order, in sync, few frames re-encoded', async () => {
    const out = join(dir, 'h264-out.mp4');
    const r = await renderEdit({ input: h264, output: out, workDir: await work(), segments });
    expect(r.path).toBe('smart');
    expect(r.audio).toBe('copy-packets');
    expect(r.encodedShare).toBeGreaterThan(0);
    expect(r.encodedShare).toBeLessThan(0.6);
    const frames = await readFrameNumbers(out);
    expect(frames).toEqual(expectedFramesForSegments(segments, FPS));
    const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), FPS);
    expect(sync.matched).toBeGreaterThan(20);
    expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(1024 / 48000);
  }, 120000);

  it('pieces kept in the cache are byte-identical to fresh ones; the next edit makes only new pieces; another source never meets them', async () => {
    const cache = new DiskCache({ dir: join(dir, 'cache'), maxBytes: 1e9, maxAgeMs: 3600_000 });
    const render = async (sourceId: string | null, segs: typeof segments, name: string) => {
      const workDir = await work();
      const out = join(dir, name);
      const r = await renderEdit({ input: h264, output: out, workDir, segments: segs, cache: sourceId ? { store: cache, sourceId } : undefined });
      const pieces: Record<string, Buffer> = {};
      for (const f of (await readdir(workDir)).filter((x) => x.startsWith('piece-'))) pieces[f] = await readFile(join(workDir, f));
      return { r, out, pieces };
    };
    const fresh = await render(null, segments, 'fresh.mp4');
    const first = await render('h264@1', segments, 'first.mp4');
    const again = await render('h264@1', segments, 'again.mp4');
    expect(first.r.pieces).toEqual({ reused: 0, made: Object.keys(fresh.pieces).length });
    expect(again.r.pieces).toEqual({ reused: Object.keys(fresh.pieces).length, made: 0 });
    // the same bytes whether made now, made for the cache, or taken from it; so is the output
    for (const [name, bytes] of Object.entries(fresh.pieces)) {
      expect(first.pieces[name]!.equals(bytes)).toBe(true);
      expect(again.pieces[name]!.equals(bytes)).toBe(true);
    }
    expect((await readFile(again.out)).equals(await readFile(fresh.out))).toBe(true);

    // one more cut inside the first range: only the pieces around it are new
    const more = [{ start: 7.1, end: 7.9 }, { start: 8.3, end: 9.05 }, ...segments.slice(1)];
    const next = await render('h264@1', more, 'more.mp4');
    expect(next.r.pieces!.reused).toBeGreaterThan(0);
    expect(next.r.pieces!.made).toBeLessThanOrEqual(3);
    expect(await readFrameNumbers(next.out)).toEqual(expectedFramesForSegments(more, FPS));

    // a changed source (another ETag) finds nothing of the old one
    const other = await render('h264@2', segments, 'other.mp4');
    expect(other.r.pieces).toEqual({ reused: 0, made: Object.keys(fresh.pieces).length });
  }, 120000);

  it('the full re-encode (what most tools do) gives the same frames', async () => {
    const out = join(dir, 'h264-full.mp4');
    const r = await renderEdit({ input: h264, output: out, workDir: await work(), segments, forceReencode: true });
    expect(r.path).toBe('reencode');
    expect(await readFrameNumbers(out)).toEqual(expectedFramesForSegments(segments, FPS));
  }, 120000);

  it('smart path on HEVC', async () => {
    const out = join(dir, 'hevc-out.mp4');
    const segs = [
      { start: 3.2, end: 5.5 },
      { start: 0.5, end: 2.1 },
    ];
    const r = await renderEdit({ input: hevc, output: out, workDir: await work(), segments: segs });
    expect(r.path).toBe('smart');
    expect(await readFrameNumbers(out)).toEqual(expectedFramesForSegments(segs, FPS));
    expect(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_tag_string', '-of', 'csv=p=0', out]).toString().trim()).toBe('hev1'); // its pieces bring their own parameter sets, in band
  }, 120000);

  it('audio that starts 0.25 s after the video (an offset edit) starts as late in every path: in sync before the first cut too', async () => {
    const late = join(dir, 'late-audio.mp4');
    const delay = 0.25;
    await generateTimecodeMedia(late, { durationSec: 6, fps: FPS, gopFrames: 30, audioDelaySec: delay });
    const audioStart = (path: string) =>
      Number(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=start_time', '-of', 'csv=p=0', path]).toString().trim());
    const cuts = [{ start: 0, end: 2 }, { start: 3, end: 6 }];
    const runs = [
      { name: 'smart', segments: cuts, path: 'smart', audio: 'copy-packets' },
      { name: 'reencode', segments: cuts, forceReencode: true, path: 'reencode', audio: 'copy-packets' },
      { name: 'muted', segments: [{ start: 0, end: 6 }], volumes: [{ start: 3, end: 3.5, volume: 0 }], path: 'copy-video', audio: 'spliced' },
    ] as const;
    for (const run of runs) {
      const out = join(dir, `late-${run.name}.mp4`);
      const r = await renderEdit({ input: late, output: out, workDir: await work(), segments: run.segments, ...('volumes' in run ? { volumes: run.volumes } : {}), ...('forceReencode' in run ? { forceReencode: true } : {}) });
      expect([run.name, r.path, r.audio]).toEqual([run.name, run.path, run.audio]);
      const frames = await readFrameNumbers(out);
      expect(frames).toEqual(expectedFramesForSegments(run.segments, FPS));
      // a muted burst is silent: its frames expect none
      const muted = (n: number) => 'volumes' in run && run.volumes.some((m) => n / FPS >= m.start - 0.05 && n / FPS < m.end + 0.05);
      const sync = checkSync(frames.map((n) => (muted(n) ? -1 : n)), await readBurstOnsets(out, { minQuietSec: 0.015 }), FPS, delay);
      expect(sync.matched).toBeGreaterThan(20);
      expect({ run: run.name, offset: sync.interiorMaxOffsetSec <= 1024 / 48000 ? 'within one AAC frame' : sync.interiorMaxOffsetSec }).toEqual({ run: run.name, offset: 'within one AAC frame' });
      expect(Math.abs(audioStart(out) - audioStart(late))).toBeLessThan(0.002);
    }
  }, 180000);

  it('mutes only: video stream-copied, only the audio around the mutes re-encoded; the rest is the source bit for bit', async () => {
    const volumes = [
      { start: 1, end: 2, volume: 0.1 },
      { start: 4.2, end: 4.9, volume: 0 },
      { start: 8, end: 9.5, volume: 0.3 },
    ];
    const out = join(dir, 'muted.mp4');
    const r = await renderEdit({ input: h264, output: out, workDir: await work(), segments: [{ start: 0, end: 12 }], volumes });
    expect(r.path).toBe('copy-video');
    expect(r.audio).toBe('spliced');
    expect(r.audioFallbackReason).toBeNull();
    expect(r.audioSplice!.regions).toBe(3);
    expect(r.audioSplice!.snrDb).toBeGreaterThanOrEqual(SPLICE_MIN_SNR_DB);
    expect(r.encodedShare).toBe(0);
    expect(await readFrameNumbers(out)).toEqual(Array.from({ length: 12 * FPS }, (_, i) => i));

    const plain = join(dir, 'unmuted.mp4');
    const p = await renderEdit({ input: h264, output: plain, workDir: await work(), segments: [{ start: 0, end: 12 }] });
    expect(p.audio).toBe('copy-packets');
    const pcm = (path: string) => {
      const bytes = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a:0', '-f', 's16le', '-'], { maxBuffer: 64 << 20 });
      return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    };
    const muted = pcm(out);
    const ref = pcm(plain);
    expect(muted.length).toBe(ref.length);
    const regions = spliceRegions(volumes, 48000, ref.length / 2 / AAC_BLOCK);
    expect(regions).toHaveLength(3);
    // outside the re-encoded regions (and the block after each, which overlaps the last new packet): identical samples
    const inRegion = (sample: number) => regions.some((g) => sample >= g.a * AAC_BLOCK && sample < (g.b + 1) * AAC_BLOCK);
    let differing = 0;
    let compared = 0;
    for (let i = 0; i < ref.length; i++) {
      if (inRegion(Math.floor(i / 2))) continue;
      compared++;
      if (muted[i] !== ref[i]) differing++;
    }
    expect(compared).toBeGreaterThan(ref.length / 2);
    expect(differing).toBe(0);
    // inside each mute, the level asked for
    const rms = (x: Int16Array, from: number, to: number) => {
      let sum = 0;
      for (let i = from * 2; i < to * 2; i++) sum += x[i]! * x[i]!;
      return Math.sqrt(sum / ((to - from) * 2));
    };
    for (const v of volumes) {
      const [from, to] = [Math.round((v.start + 0.05) * 48000), Math.round((v.end - 0.05) * 48000)];
      const ratio = rms(muted, from, to) / rms(ref, from, to);
      expect(ratio).toBeCloseTo(v.volume, 1);
    }
  }, 120000);

  it.each([
    [AwkwardMedia.rotated, null],
    [AwkwardMedia.odd, null],
    [AwkwardMedia.vfr, null],
    [AwkwardMedia.hevc, null],
    [AwkwardMedia.noAudio, null],
    [AwkwardMedia.moovAtEnd, null],
  ])('awkward media %s: a cut renders, plays, and says which path ran', async (name, reason) => {
    const input = join(awkward, name);
    const info = await readRenderMediaInfo(input);
    const blocker = smartRenderBlocker(info);
    if (reason) expect(blocker).toMatch(reason);
    const out = join(dir, `awk-${name}`);
    const r = await renderEdit({ input, output: out, workDir: await work(), segments: [{ start: 0, end: 1 }, { start: 1.5, end: 3.5 }], info });
    expect(r.fallbackReason).toBe(blocker);
    expect(r.path).toBe(blocker ? 'reencode' : 'smart');
    const p = probeVideo(out);
    expect(p.duration).toBeGreaterThan(2.7);
    expect(p.duration).toBeLessThan(3.3);
    expect(p.width % 2).toBe(0);
    expect(p.audio).toBe(name !== AwkwardMedia.noAudio);
    // the display matrix is kept: shown upright
    if (name === AwkwardMedia.rotated) expect(displayDimensions((await probe(out)).streams.find((s) => s.codecType === 'video'))).toEqual({ width: 180, height: 320 });
  }, 120000);

  it('a 9:16 reframe with burned captions renders at 1080x1920', async () => {
    const out = join(dir, 'story.mp4');
    const plan = planReframe(320, 180, '9:16', { offsetX: 10, offsetY: 0, scale: 1.2 });
    const ass = buildAssScript(buildCaptionCues([{ text: 'Hello', start: 0.2, end: 0.8 }, { text: 'world.', start: 0.9, end: 1.5 }]), plan.width, plan.height);
    const r = await renderEdit({ input: h264, output: out, workDir: await work(), segments: [{ start: 2, end: 4 }], videoFilter: plan.filter, assScript: ass });
    expect(r.path).toBe('reencode');
    const p = probeVideo(out);
    expect([p.width, p.height]).toEqual([1080, 1920]);
    expect(p.frames).toBe(60);
  }, 120000);

  it('cancel kills ffmpeg at once', async () => {
    const ac = new AbortController();
    const started = Date.now();
    // cancelled while ffmpeg encodes: at its first progress report
    const run = renderEdit({
      input: h264, output: join(dir, 'cancelled.mp4'), workDir: await work(), segments, forceReencode: true, signal: ac.signal,
      onProgress: (p) => p > 5 && ac.abort(new Error('cancelled by test')),
    });
    await expect(run).rejects.toBeInstanceOf(Error);
    await run.catch((e: unknown) => expect(e instanceof FfmpegAbortedError || (e as Error).message.includes('cancel')).toBe(true));
    expect(Date.now() - started).toBeLessThan(10000);
  }, 60000);
});
