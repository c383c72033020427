import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  browserPlayback,
  computePeaks,
  displayDimensions,
  FfmpegMediaTools,
  MediaProbeError,
  mediaInput,
  speechAudioInput,
  NoAudioError,
  primaryVideoStream,
  type FfmpegProgress,
} from '@wordcut/ffmpeg';
import { AWKWARD_LEAD_SEC, AWKWARD_TOTAL_SEC, AwkwardMedia, ensureAwkwardMedia } from '../../../tools/media/awkward-media';

describe('peaks, playback and browser proxies of awkward media (real ffmpeg)', () => {
  let media: string;
  let out: string;
  const tools = new FfmpegMediaTools();
  const file = (name: string) => join(media, name);

  beforeAll(async () => {
    media = await ensureAwkwardMedia();
    out = await mkdtemp(join(tmpdir(), 'wordcut-ingest-media-'));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('peaks follow the audio: the silent lead-in is ~0, the speech is loud', async () => {
    const { durationSec, peaks } = await computePeaks(file(AwkwardMedia.moovAtEnd), { peaksPerSecond: 100, timeoutMs: 30_000 });
    expect(durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 1);
    expect(peaks.length).toBe(Math.ceil(durationSec * 100));
    const lead = peaks.subarray(0, Math.floor(AWKWARD_LEAD_SEC * 100) - 5); // AAC pre-echo may reach a few ms early
    const speech = peaks.subarray(Math.ceil(AWKWARD_LEAD_SEC * 100) + 5, Math.ceil(AWKWARD_LEAD_SEC * 100) + 105);
    expect(Math.max(...lead)).toBeLessThanOrEqual(3);
    expect(Math.max(...speech)).toBeGreaterThan(150);
    expect(speech.filter((p) => p > 20).length).toBeGreaterThan(50);
  });

  it('no audio track => NoAudioError; a text file => MediaProbeError NOT_MEDIA', async () => {
    const noAudio = computePeaks(file(AwkwardMedia.noAudio), { peaksPerSecond: 100, timeoutMs: 30_000 });
    await expect(noAudio).rejects.toBeInstanceOf(NoAudioError);
    await expect(noAudio).rejects.toMatchObject({ code: 'NO_AUDIO', message: 'This video has no audio track.' });
    await expect(computePeaks(file(AwkwardMedia.fake), { peaksPerSecond: 100, timeoutMs: 30_000 })).rejects.toMatchObject({
      constructor: MediaProbeError,
      code: 'NOT_MEDIA',
    });
  });

  it('probes rotation, pixel format and profile; judges browser playback', async () => {
    const rotated = await tools.probe(file(AwkwardMedia.rotated));
    expect(primaryVideoStream(rotated)).toMatchObject({ width: 320, height: 180, pixFmt: 'yuv420p' });
    expect([90, 270]).toContain(primaryVideoStream(rotated)!.rotation);
    expect(displayDimensions(primaryVideoStream(rotated))).toEqual({ width: 180, height: 320 });
    expect(browserPlayback(rotated).playable).toBe(true);
    for (const ok of [AwkwardMedia.vfr, AwkwardMedia.moovAtEnd, AwkwardMedia.noAudio]) {
      expect(browserPlayback(await tools.probe(file(ok)))).toEqual({ playable: true, reasons: [] });
    }
    expect(browserPlayback(await tools.probe(file(AwkwardMedia.hevc))).reasons).toEqual(['video codec hevc is not playable in browsers']);
    const odd = await tools.probe(file(AwkwardMedia.odd));
    expect(primaryVideoStream(odd)).toMatchObject({ width: 321, height: 241, pixFmt: 'yuv444p', profile: 'High 4:4:4 Predictive' });
    expect(browserPlayback(odd).playable).toBe(false);
  });

  it('transcodes to an upright, even-sized H.264/AAC faststart proxy with progress', async () => {
    for (const [name, size] of [
      [AwkwardMedia.odd, { width: 320, height: 240 }],
      [AwkwardMedia.rotated, { width: 180, height: 320 }],
      [AwkwardMedia.hevc, { width: 320, height: 240 }],
    ] as const) {
      const target = join(out, `proxy-${name}`);
      const seen: FfmpegProgress[] = [];
      await tools.transcodeForBrowser(file(name), target, { durationSec: AWKWARD_TOTAL_SEC, timeoutMs: 60_000, onProgress: (p) => seen.push(p) });
      expect(seen.at(-1)).toMatchObject({ done: true, percent: 100 });
      const p = await tools.probe(target);
      const v = primaryVideoStream(p)!;
      expect(v).toMatchObject({ codecName: 'h264', pixFmt: 'yuv420p', rotation: 0, ...size });
      expect(p.streams.find((s) => s.codecType === 'audio')).toMatchObject({ codecName: 'aac' });
      expect(p.durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
      expect(browserPlayback(p)).toEqual({ playable: true, reasons: [] });
      const bytes = await readFile(target);
      expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat')); // +faststart
    }
  });

  it('speech audio of a stretch is 16 kHz mono on the player\'s timeline (late audio after silence), and never larger than asked', async () => {
    const whole = join(out, 'speech.mp3');
    await tools.extractSpeechAudio(mediaInput(file(AwkwardMedia.moovAtEnd)), whole, { format: 'mp3', startSec: 0, durationSec: 3, maxBytes: 1_000_000, timeoutMs: 30_000 });
    const probed = await tools.probe(speechAudioInput(whole, 'mp3'));
    expect(probed.streams).toEqual([expect.objectContaining({ codecType: 'audio', codecName: 'mp3', sampleRate: 16000, channels: 1 })]);
    expect(probed.durationSec).toBeCloseTo(3, 0);
    const level = async (path: string, format: 'mp3' | 'wav') => (await computePeaks(speechAudioInput(path, format), { peaksPerSecond: 10, timeoutMs: 30_000 })).peaks;
    const peaks = await level(whole, 'mp3');
    // the audio starts 1 s in: silence first, speech after
    expect(Math.max(...peaks.subarray(0, Math.floor(AWKWARD_LEAD_SEC * 10) - 1))).toBeLessThanOrEqual(3);
    expect(Math.max(...peaks.subarray(Math.ceil(AWKWARD_LEAD_SEC * 10) + 1))).toBeGreaterThan(100);
    // a stretch from 0.5 s: the speech starts half a second in
    const later = join(out, 'later.wav');
    await tools.extractSpeechAudio(mediaInput(file(AwkwardMedia.moovAtEnd)), later, { format: 'wav', startSec: 0.5, durationSec: 2, maxBytes: 1_000_000, timeoutMs: 30_000 });
    const shifted = await level(later, 'wav');
    expect(Math.max(...shifted.subarray(0, 4))).toBeLessThanOrEqual(3);
    expect(Math.max(...shifted.subarray(6))).toBeGreaterThan(100);
    expect((await readFile(later)).length).toBeCloseTo(44 + 2 * 16000 * 2, -3);
    // the size limit holds whatever the stretch
    const capped = join(out, 'capped.wav');
    await tools.extractSpeechAudio(mediaInput(file(AwkwardMedia.moovAtEnd)), capped, { format: 'wav', startSec: 0, durationSec: 3, maxBytes: 20_000, timeoutMs: 30_000 });
    expect((await readFile(capped)).length).toBeLessThanOrEqual(20_000 + 4096);
  });
});
