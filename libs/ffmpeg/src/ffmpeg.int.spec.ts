import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FfmpegAbortedError,
  FfmpegError,
  FfmpegMediaTools,
  FfmpegTimeoutError,
  MediaProbeError,
  probe,
  runFfmpeg,
  type FfmpegProgress,
} from '@wordcut/ffmpeg';
import { startTestS3 } from '../../../tools/testing/local-s3';
import { BACKGROUND_NICENESS, runProcess } from './process';

/** An endless realtime source: only a kill ends it. */
const ENDLESS = ['-re', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10', '-f', 'null', '-'];

describe('ffmpeg module against the real binaries', () => {
  let dir: string;
  let av: string;
  const tools = new FfmpegMediaTools();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-ffmpeg-'));
    av = join(dir, 'av.mp4');
    await runFfmpeg({
      timeoutMs: 30_000,
      args: [
        '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=3',
        '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3',
        '-ac', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k',
        '-movflags', '+faststart', '-shortest', av,
      ],
    });
    await writeFile(join(dir, 'notes.txt'), 'This is not a video.\nJust some text.\n');
    await writeFile(join(dir, 'captions.vtt'), 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('probes generated media: container, durations, codecs, geometry, rates', async () => {
    const r = await tools.probe(av, { timeoutMs: 10_000 });
    expect(r.formatName).toContain('mp4');
    expect(r.durationSec).toBeCloseTo(3, 1);
    expect(r.sizeBytes).toBe((await readFile(av)).length);
    expect(r.bitRate).toBeGreaterThan(0);
    const v = r.streams.find((s) => s.codecType === 'video');
    const a = r.streams.find((s) => s.codecType === 'audio');
    expect(v).toMatchObject({ codecName: 'h264', width: 320, height: 240, frameRate: 25, sampleRate: null });
    expect(v!.durationSec).toBeCloseTo(3, 1);
    expect(a).toMatchObject({ codecName: 'aac', sampleRate: 44100, channels: 2, width: null, frameRate: null });
  });

  it('finds the scene changes where an encoder put a keyframe at a cut, and none in an unbroken shot', async () => {
    const cuts = join(dir, 'cuts.mp4');
    // three shots of 2 s; keyframes forced at the cuts, as encoders do at a scene change
    await runFfmpeg({
      timeoutMs: 30_000,
      args: [
        '-f', 'lavfi', '-i', 'color=c=red:s=320x240:d=2:r=25',
        '-f', 'lavfi', '-i', 'testsrc2=s=320x240:d=2:r=25',
        '-f', 'lavfi', '-i', 'color=c=blue:s=320x240:d=2:r=25',
        '-filter_complex', '[0][1][2]concat=n=3:v=1:a=0,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast',
        '-force_key_frames', '0,2,4', '-g', '250', cuts,
      ],
    });
    expect(await tools.detectSceneChanges(cuts, { timeoutMs: 20_000 })).toEqual([2, 4]);
    expect(await tools.detectSceneChanges(av, { timeoutMs: 20_000 })).toEqual([]);
    await expect(tools.detectSceneChanges(join(dir, 'notes.txt'), { timeoutMs: 10_000 })).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('rejects a text file, a subtitle file and a missing file with MediaProbeError', async () => {
    // Untrusted media is read as MP4/MOV only: anything else is refused before ffprobe parses it.
    const txt = probe(join(dir, 'notes.txt'));
    await expect(txt).rejects.toBeInstanceOf(MediaProbeError);
    await expect(txt).rejects.toMatchObject({
      code: 'NOT_MP4',
      message: 'not a playable media file: not an MP4/MOV file (no ISO base media box at its start)',
    });
    await expect(probe(join(dir, 'captions.vtt'))).rejects.toMatchObject({ code: 'NOT_MP4' });
    const audioOnly = join(dir, 'audio-only.m4a');
    await runFfmpeg({ timeoutMs: 30_000, args: ['-i', av, '-vn', '-c:a', 'copy', audioOnly] });
    await expect(probe(audioOnly)).resolves.toMatchObject({ formatName: 'mov,mp4,m4a,3gp,3g2,mj2' });
    await expect(probe(join(dir, 'missing.mp4'))).rejects.toMatchObject({
      code: 'UNREADABLE',
      message: 'cannot read media input: No such file or directory',
    });
  });

  it('transcodes with progress callbacks that climb to 100%', async () => {
    const out = join(dir, 'small.mp4');
    const seen: FfmpegProgress[] = [];
    const res = await tools.runFfmpeg({
      timeoutMs: 30_000,
      durationSec: 3,
      onProgress: (p) => seen.push(p),
      args: ['-stats_period', '0.05', '-i', av, '-vf', 'scale=160:120', '-c:v', 'libx264', '-preset', 'veryslow', '-c:a', 'aac', out],
    });
    expect(res.exitCode).toBe(0);
    expect(res.durationMs).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ done: true, percent: 100 });
    expect(last.outTimeSec).toBeGreaterThan(2.9);
    expect(last.frame).toBe(75);
    const percents = seen.map((p) => p.percent!);
    expect(percents.every((p, i) => p >= 0 && p <= 100 && (i === 0 || p >= percents[i - 1]!))).toBe(true);
    expect((await probe(out)).streams.find((s) => s.codecType === 'video')).toMatchObject({ width: 160, height: 120 });
  });

  it('non-zero exit => FfmpegError with exit code and stderr tail', async () => {
    const err = await runFfmpeg({ timeoutMs: 10_000, args: ['-i', join(dir, 'nope.mp4'), join(dir, 'x.mp4')] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    const e = err as FfmpegError;
    expect(e.exitCode).not.toBe(0);
    expect(e.exitCode).not.toBeNull();
    expect(e.stderrTail).toContain('No such file or directory');
    expect(e.message).toMatch(/^ffmpeg exited with code \d+: .*No such file or directory/);
  });

  it('inputs outside the protocol whitelist are refused', async () => {
    const err = await runFfmpeg({ timeoutMs: 10_000, args: ['-i', `concat:${av}|${av}`, '-f', 'null', '-'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).stderrTail).toMatch(/not on whitelist/);
  });

  it('kills the process on timeout (SIGKILL) and rejects with FfmpegTimeoutError', async () => {
    const t0 = Date.now();
    const err = await runFfmpeg({ timeoutMs: 800, args: ENDLESS }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegTimeoutError);
    expect(err).toMatchObject({ timeoutMs: 800, message: 'ffmpeg timed out after 800 ms and was killed' });
    expect((err as FfmpegTimeoutError).details.signal).toBe('SIGKILL');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('kills the process when the AbortSignal fires', async () => {
    const ac = new AbortController();
    const seen: FfmpegProgress[] = [];
    const p = runFfmpeg({
      timeoutMs: 60_000,
      signal: ac.signal,
      args: ['-stats_period', '0.1', ...ENDLESS],
      onProgress: (x) => {
        seen.push(x);
        if (seen.length === 2) ac.abort(new Error('user cancelled'));
      },
    });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegAbortedError);
    expect((err as FfmpegAbortedError).details.signal).toBe('SIGKILL');
    expect((err as Error).cause).toEqual(new Error('user cancelled'));
    expect(seen.every((s) => s.percent === null)).toBe(true); // no durationSec given

    const pre = new AbortController();
    pre.abort();
    await expect(runFfmpeg({ timeoutMs: 1000, signal: pre.signal, args: ENDLESS })).rejects.toBeInstanceOf(FfmpegAbortedError);
  });

  it('a missing binary is a clear FfmpegError', async () => {
    const bad = new FfmpegMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: '/nonexistent/ffprobe' });
    await expect(bad.runFfmpeg({ timeoutMs: 1000, args: ['-version'] })).rejects.toThrow(
      'cannot start /nonexistent/ffmpeg: /nonexistent/ffmpeg not found',
    );
    await expect(bad.probe(av)).rejects.toBeInstanceOf(FfmpegError);
    await expect(tools.versions()).resolves.toMatchObject({ ffmpeg: expect.stringMatching(/^ffmpeg version/) });
  });

  it("runs media processes below the caller's priority, so requests keep the CPU they need", async () => {
    // field 19 of /proc/<pid>/stat is the niceness of the process that reads it
    const nice = async (niceness?: number) =>
      (await runProcess({ binary: 'sh', args: ['-c', 'cut -d" " -f19 /proc/$$/stat'], timeoutMs: 5000, maxStdoutBytes: 100, niceness })).stdout.toString().trim();
    expect(BACKGROUND_NICENESS).toBe(10);
    const own = getPriority();
    expect(await nice()).toBe(String(Math.min(19, own + 10)));
    expect(await nice(0)).toBe(String(own));
  });

  it('probes over http: a presigned GET from the local S3', async () => {
    const { storage, close } = await startTestS3('probe-test');
    try {
      await storage.ensureBucket();
      await storage.upload('videos/av.mp4', await readFile(av), { contentType: 'video/mp4' });
      const url = await storage.presignGet('videos/av.mp4', 120);
      const r = await tools.probe(url, { timeoutMs: 15_000 });
      expect(r.durationSec).toBeCloseTo(3, 1);
      expect(r.streams.map((s) => s.codecName).sort()).toEqual(['aac', 'h264']);

      const missing = await storage.presignGet('videos/missing.mp4', 120);
      const err = await tools.probe(missing, { timeoutMs: 15_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaProbeError);
      expect(err).toMatchObject({ code: 'UNREADABLE' });
      expect((err as Error).message).toMatch(/404/);
      expect((err as MediaProbeError).input).not.toContain('X-Amz-Signature');
      expect((err as Error).message).not.toContain('X-Amz-Signature');
    } finally {
      await close();
    }
  });
});
